// Hands text to the user as a file (a statement CSV): a download in the browser, the save
// dialog in the desktop app.
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled, not before the download starts.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a client's name: letters, digits, dot, dash and underscore only. */
export function safeFilePart(text: string): string {
  return text.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'no-client';
}
