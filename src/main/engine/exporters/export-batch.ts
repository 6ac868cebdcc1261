// Results -> CSV, JSON or TXT, streamed row by row so a 100,000-job batch exports in constant memory.
import { createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import type { Db } from '../db/connection';
import type { BatchCapability } from '../../../shared/domain';
import { assertNever } from '../../../shared/domain';
import { moneyToDecimal } from '../../../shared/money';
import type { JobRow } from '../queue/job-row';

export type ExportFormat = 'csv' | 'json' | 'txt';

interface Flat {
  [column: string]: string | number | null;
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** One flat record per job; the columns depend only on the capability. */
export function flatten(job: JobRow, capability: BatchCapability): Flat {
  const payload = parseObject(job.payload_json);
  const result = parseObject(job.result_json);
  const base: Flat = {
    item: job.seq,
    source: job.source,
    state: job.state,
    units: job.units,
    cost_eur: job.cost === null ? null : moneyToDecimal(job.cost),
    attempts: job.attempts,
    error: job.error_message,
    http_status: job.http_status,
    idempotency_key: job.idempotency_key,
  };
  switch (capability) {
    case 'transcribe':
      return { ...base, sha256: str(payload.sha256), language: str(result.language), duration_seconds: str(result.duration_seconds), text: str(result.text) };
    case 'ocr': {
      const fields = parseObject(JSON.stringify(result.fields ?? {}));
      return {
        ...base,
        sha256: str(payload.sha256),
        invoice_number: str(fields.invoice_number),
        invoice_date: str(fields.invoice_date),
        vendor: str(fields.vendor),
        total: str(fields.total),
        currency: str(fields.currency),
        text: str(result.text),
      };
    }
    case 'channel':
      return { ...base, to: str(payload.to), message_id: str(result.message_id), status: str(result.status), text: str(payload.text) };
    default:
      return assertNever(capability, 'capability');
  }
}

/** RFC 4180 field; a leading =, +, - or @ is quoted with ' so spreadsheets do not run it as a formula. */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export async function exportBatch(db: Db, batchId: string, capability: BatchCapability, format: ExportFormat, outPath: string): Promise<number> {
  let fd: number;
  try {
    fd = openSync(outPath, 'w');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(`Cannot write ${outPath} (${code}). Choose a path in an existing folder you can write to.`);
  }
  const out = createWriteStream('', { fd, encoding: 'utf8' });
  const write = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  const rows = db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq`).iterate(batchId) as IterableIterator<JobRow>;
  let n = 0;
  let header: string[] | null = null;
  if (format === 'json') await write('[\n');
  for (const job of rows) {
    const flat = flatten(job, capability);
    switch (format) {
      case 'csv':
        if (!header) {
          header = Object.keys(flat);
          await write(`${header.map(csvField).join(',')}\r\n`);
        }
        await write(`${header.map((h) => csvField(flat[h] ?? null)).join(',')}\r\n`);
        break;
      case 'json':
        await write(`${n > 0 ? ',\n' : ''}  ${JSON.stringify(flat)}`);
        break;
      case 'txt':
        await write(txtBlock(flat, capability));
        break;
      default:
        assertNever(format, 'export format');
    }
    n++;
  }
  if (format === 'json') await write('\n]\n');
  out.end();
  await once(out, 'finish');
  return n;
}

function txtBlock(f: Flat, capability: BatchCapability): string {
  const head = `=== ${f.source} [${f.state}]`;
  if (capability === 'channel') {
    return `${head} to ${f.to ?? ''}${f.message_id ? ` message ${f.message_id}` : ''}${f.error ? ` - ${f.error}` : ''}\n`;
  }
  return `${head}\n${f.text ?? (f.error ? `(${f.error})` : '')}\n\n`;
}
