// Results -> CSV, JSON or TXT, streamed row by row so a 100,000-job batch exports in constant memory.
import { createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import type { Db } from '../db/connection';
import type { BatchCapability } from '../../../shared/domain';
import { assertNever } from '../../../shared/domain';
import { capabilityFor } from '../capabilities/registry';
import { moneyToDecimal } from '../../../shared/money';
import type { JobRow } from '../queue/job-row';
import { storedJson } from '../stored-json';

export type ExportFormat = 'csv' | 'json' | 'txt';

interface Flat {
  [column: string]: string | number | null;
}


/** One flat record per job; the columns depend only on the capability (its module and descriptor). */
export function flatten(job: JobRow, capability: BatchCapability): Flat {
  const mod = capabilityFor(capability);
  const payload = mod.payload.safeParse(storedJson(job.payload_json));
  const result = storedJson(job.result_json);
  return {
    item: job.seq,
    source: job.source,
    state: job.state,
    units: job.units,
    cost_eur: job.cost === null ? null : moneyToDecimal(job.cost),
    attempts: job.attempts,
    error: job.error_message,
    /** The taxonomy's code (shared/errors.ts), beside the message, for filtering failed items. */
    error_kind: job.error_kind,
    http_status: job.http_status,
    idempotency_key: job.idempotency_key,
    ...(payload.success ? mod.sourceColumns(payload.data) : {}),
    ...mod.descriptor.columns(result),
  };
}

/** A cell a spreadsheet would read as a number or phone number, never as a formula. */
const NUMBER_LIKE = /^[+-]?[\d][\d\s().,/-]*$/;

/**
 * RFC 4180 field. A cell a spreadsheet would run as a formula (starting with =, @, a tab or CR,
 * or + / - followed by anything but a number) is prefixed with ' ; phone numbers (+44 20 ...)
 * and negative numbers stay exactly as they are.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && (/^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !NUMBER_LIKE.test(s)))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** JSON keeps numbers as numbers: the cost (a decimal string in CSV, exact to 1/10,000) becomes a number. */
function jsonRecord(f: Flat): Record<string, string | number | null> {
  return { ...f, cost_eur: typeof f.cost_eur === 'string' ? Number(f.cost_eur) : f.cost_eur ?? null };
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
        await write(`${n > 0 ? ',\n' : ''}  ${JSON.stringify(jsonRecord(flat))}`);
        break;
      case 'txt':
        await write(txtBlock(flat, job, capability));
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

/** A readable block per item: the text a result offers, or its columns when it offers none. */
function txtBlock(f: Flat, job: JobRow, capability: BatchCapability): string {
  const head = `=== ${f.source} [${f.state}]`;
  const desc = capabilityFor(capability).descriptor;
  const text = job.state === 'succeeded' ? desc.offers(storedJson(job.result_json)) : null;
  if (text !== null) return `${head}\n${text}\n\n`;
  if (f.error) return `${head} - ${f.error}\n`;
  const cols = Object.entries(desc.columns(storedJson(job.result_json)))
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `${head}${f.to ? ` to ${f.to}` : ''}${cols ? ` ${cols}` : ''}\n`;
}
