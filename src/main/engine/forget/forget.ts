// `batchdesk forget VALUE`: the person is taken out of every place the store keeps text (jobs'
// sources, inputs, request bodies, results and errors; histories; batch names and options;
// invoice checks; opt-out notes), each place replaced by [FORGOTTEN]. A job that held them loses
// its embedding and search entry (indexed again from the scrubbed text) and, if not sent yet, is
// cancelled. Their opt-out entry stays, as a keyed hash (messaging/forgotten-recipient.ts), so
// they are still never messaged. The same code for the data folder and a team's store.
import { forgottenRecipient } from '../messaging/forgotten-recipient';
import { recipientOf, scrubStored, type ForgetTarget } from './forget-target';
import { JOBS, type ForgetStore, type RowKey } from './forget-store';

export interface ForgetReport {
  /** "jobs.result_json" -> places replaced. */
  replaced: Record<string, number>;
  /** Rows changed, by table. */
  rows: Record<string, number>;
  /** Jobs that held the value, with their batch (for the data folder's files). */
  jobs: { id: number; batchId: string }[];
  embeddings: number;
  searchEntries: number;
  storedFiles: number;
  cancelled: number;
  /** The opt-out entry kept as a keyed hash. */
  optOutHashed: boolean;
  recipientSends: number;
  /** What the store could not make unreadable, in words. */
  notPurged: string[];
}

const PAGE = 500;

export async function forgetInStore(store: ForgetStore, target: ForgetTarget, opts: { dryRun?: boolean } = {}): Promise<ForgetReport> {
  const report: ForgetReport = {
    replaced: {},
    rows: {},
    jobs: [],
    embeddings: 0,
    searchEntries: 0,
    storedFiles: 0,
    cancelled: 0,
    optOutHashed: false,
    recipientSends: 0,
    notPurged: [],
  };
  for (const place of store.places) {
    for (let after: RowKey | null = null; ;) {
      const rows = await store.page(place, after, PAGE);
      for (const row of rows) {
        const changes: Record<string, string> = {};
        for (const col of place.columns) {
          const v = row.values[col];
          if (v === null || v === undefined) continue;
          const r = scrubStored(v, target);
          if (r.count === 0) continue;
          changes[col] = r.text;
          const name = `${place.table}.${col}`;
          report.replaced[name] = (report.replaced[name] ?? 0) + r.count;
        }
        if (Object.keys(changes).length === 0) continue;
        report.rows[place.table] = (report.rows[place.table] ?? 0) + 1;
        if (place === JOBS) report.jobs.push({ id: Number(row.key), batchId: row.values.batch_id ?? '' });
        if (!opts.dryRun) await store.update(place, row.key, changes);
      }
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < PAGE) break;
      after = last.key;
    }
  }
  if (!opts.dryRun) {
    for (const j of report.jobs) {
      const c = await store.clearJob(j.id);
      report.embeddings += Number(c.vector);
      report.searchEntries += Number(c.searchEntry);
      report.storedFiles += Number(c.storedFile);
      report.cancelled += Number(c.cancelled);
    }
  }
  const recipient = recipientOf(target);
  if (recipient !== null) {
    if ((await store.optOutRecipients()).includes(recipient)) {
      report.optOutHashed = true;
      if (!opts.dryRun) await store.hashOptOut(recipient, forgottenRecipient(recipient, await store.forgetSecret()));
    }
    if (!opts.dryRun) report.recipientSends = await store.removeRecipientSends(recipient);
  }
  if (!opts.dryRun) report.notPurged = await store.purge();
  return report;
}
