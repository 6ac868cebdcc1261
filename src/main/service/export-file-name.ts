// The name of a file the window exports of a batch (a table's download, the files zip), made here
// only: "October-notice-2026-11-29-bmx2d6etf49bfa8-invoices.csv". A batch's name can be long, so
// it is cut at a word to keep the whole name within EXPORT_NAME_MAX characters; the export's date,
// the batch id (retention finds a batch's exports by it) and the ending are always kept whole.

/** At most this many characters in an export's file name (the ending and date included). */
export const EXPORT_NAME_MAX = 80;

/** The batch's name as ASCII words joined by "-" (accents dropped, separators and the rest as "-"). */
function asciiWords(batchName: string): string {
  return batchName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** `words` cut to at most `room` characters, at a "-" when one is there (a word longer than `room` is cut inside). */
function cutAtWord(words: string, room: number): string {
  if (words.length <= room) return words;
  const head = words.slice(0, room + 1);
  const at = head.lastIndexOf('-');
  const cut = at > 0 ? words.slice(0, at) : words.slice(0, room);
  return cut.replace(/[-.]+$/, '');
}

/** "YYYY-MM-DD" of `ms` on this computer's calendar: the date the user exported on. */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The file name of an export of batch `id` named `batchName`, made on `day` ("YYYY-MM-DD");
 * `ending` is what follows the id: ".csv", "-invoices.csv", "-files.zip".
 */
export function exportFileName(batchName: string, id: string, ending: string, day: string): string {
  const tail = `-${day}-${id}${ending}`;
  const name = cutAtWord(asciiWords(batchName), Math.max(0, EXPORT_NAME_MAX - tail.length)) || 'batch';
  return `${name}${tail}`;
}
