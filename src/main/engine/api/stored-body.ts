// What of a server's answer is kept with a job: its text with secrets removed, at most 64 KB,
// marked when cut. A server must not be able to fill the database (or leak a key into it).
import { redactSecrets } from '../../../shared/redact';
import type { ApiResponse } from './request';

export const MAX_STORED_BODY_BYTES = 64 * 1024;

export function storedBody(res: Pick<ApiResponse, 'body' | 'bodyBytes' | 'truncated'>, secrets: Iterable<string>): string {
  const cut = res.truncated || res.body.length > MAX_STORED_BODY_BYTES;
  const text = redactSecrets(res.body.toString('utf8', 0, Math.min(res.body.length, MAX_STORED_BODY_BYTES)), secrets);
  if (!cut) return text;
  const total = res.truncated ? `more than ${res.bodyBytes.toLocaleString('en')}` : res.bodyBytes.toLocaleString('en');
  return `${text}\n…[truncated by Batchdesk: the answer had ${total} bytes; the first ${MAX_STORED_BODY_BYTES.toLocaleString('en')} are kept]`;
}
