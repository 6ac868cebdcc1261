// Turns what the user dropped or picked into DroppedFile entries for client.pathsForDrop.
import type { DroppedFile } from '../transport';

/** Files the OS adds to folders that are never anyone's source. */
const JUNK = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);
const isJunk = (name: string): boolean => JUNK.has(name);

/**
 * Electron: only the top-level items of the drop. A dropped folder is a File object too; its
 * path is resolved in the preload and the engine walks it in place.
 */
export function topLevelFiles(files: FileList | readonly File[]): DroppedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.name }));
}

/** A file input: plain files keep their name, a webkitdirectory pick keeps "folder/sub/file". */
export function filesFromInput(files: FileList): DroppedFile[] {
  return Array.from(files)
    .filter((f) => !isJunk(f.name))
    .map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, out: DroppedFile[]): Promise<void> {
  const relativePath = entry.fullPath.replace(/^\/+/, '') || entry.name;
  if (entry.isFile) {
    if (isJunk(entry.name)) return;
    out.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath });
    return;
  }
  if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries returns at most ~100 entries per call: keep reading until it returns none.
    for (;;) {
      const batch = await readBatch(reader);
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, out);
    }
  }
}

/**
 * Browser: every file of the drop, folders walked recursively, each with its path inside the
 * drop. Call it synchronously from the drop handler: the DataTransfer is emptied once the
 * event returns, so its items are captured before anything is awaited.
 */
export function collectDrop(dt: DataTransfer): Promise<DroppedFile[]> {
  const captured: { entry: FileSystemEntry | null; file: File | null }[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    captured.push({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() });
  }
  const plain = captured.length === 0 ? Array.from(dt.files) : [];
  return (async () => {
    const out: DroppedFile[] = plain.map((file) => ({ file, relativePath: file.name }));
    for (const { entry, file } of captured) {
      if (entry) {
        try {
          await walk(entry, out);
          continue;
        } catch (e) {
          // A directory must be walked; a single file can still be read from the item itself.
          if (!file || entry.isDirectory) throw e;
        }
      }
      if (file && !isJunk(file.name)) out.push({ file, relativePath: file.name });
    }
    return out;
  })();
}
