// Short, readable names for job sources. Browser uploads live under
// <data folder>/uploads/<session uuid>/<path inside the drop>; that prefix means nothing to the
// user, so it is dropped and the path inside the drop is kept.
import { t } from '../i18n';
import { parseRowSource } from '../../../shared/item-path';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_PREFIX = new RegExp(`^.*[\\\\/]uploads[\\\\/]${UUID}[\\\\/]`, 'i');
const UPLOAD_PREFIX_IN_TEXT = new RegExp(`[^\\s"'\`(]*[\\\\/]uploads[\\\\/]${UUID}[\\\\/]`, 'gi');

/** "invoices/a.pdf" for an uploaded file, the path as it is otherwise ("customers.csv row 3" too). */
export function displaySource(source: string): string {
  return source.replace(UPLOAD_PREFIX, '');
}

/** An engine message with upload paths shortened the same way ("invoices/a.pdf: the file was moved…"). */
export function displayText(text: string): string {
  return text.replace(UPLOAD_PREFIX_IN_TEXT, '');
}

/** The file name first (what tells items apart), then the folder it is in. */
export function splitSource(source: string): { name: string; dir: string } {
  const shown = displaySource(source);
  const cut = Math.max(shown.lastIndexOf('/'), shown.lastIndexOf('\\'));
  if (cut < 0 || /\srow\s\d+$/.test(shown.slice(cut))) return { name: shown, dir: '' };
  return { name: shown.slice(cut + 1), dir: shown.slice(0, cut) };
}

/** An item path in the window's language: the engine's "messages.csv row 3" as "messages.csv, Zeile 3" in German. */
export function sourceWords(itemPath: string): string {
  const shown = displaySource(itemPath);
  const r = parseRowSource(shown);
  return r === null ? shown : t(r.kind === 'line' ? 'common:source.line' : 'common:source.row', { file: r.file, row: r.row });
}
