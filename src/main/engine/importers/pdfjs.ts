// Loads pdf.js (legacy build, the one meant for Node) once, on first use: it is large, and only
// imports that include PDFs need it. Its worker code runs in this thread (no worker file to find
// next to a bundle): importing the worker module registers it as globalThis.pdfjsWorker.
type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type Pdfjs = PdfjsModule;

let loading: Promise<Pdfjs> | null = null;

export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })().catch((err: unknown) => {
    loading = null; // a later import may succeed once the installation is repaired
    const detail = err instanceof Error ? err.message : String(err);
    throw new Error(`the PDF reader (pdfjs-dist) could not be loaded: ${detail}. Reinstall Batchdesk (npm install) and try again`);
  });
  return loading;
}
