// The desk over a team's PostgreSQL store: the same verbs (engine/control), batches planned here and
// handed over, sent by this computer as one worker of the team with its own keys.
import type { Engine } from '../engine/engine';
import type { Desk } from './desk';
import type { SharedStoreHandle } from '../engine/team/open-shared-store';
import { forgetInStore } from '../engine/forget/forget';
import { PgForgetStore } from '../engine/forget/pg-forget-store';
import { TEAM_DEFAULT_ORIGIN, setTeamRetentionDefault, teamRetentionDefault, teamRetentionLog, teamRuleOfBatch } from '../engine/retention/team-retention';
import type { PgQueueStore } from '../engine/store/pg/pg-queue-store';
import type { BatchRow } from '../engine/store/queue-store';
import { exportBatch } from '../engine/exporters/export-batch';
import { sharedPages } from '../engine/exporters/export-records';
import { exportFiles } from '../engine/exporters/export-files';
import { sharedResults } from '../engine/read-models/job-results';
import { NotFoundError, UserError } from '../engine/failures';
import { searchByMeaning } from '../engine/search/search-by-meaning';
import { teamMeaningSource } from '../engine/team/team-meaning';
import { createInTeamStore } from '../engine/team/team-create';
import { AlreadyFollowed } from '../engine/pipeline/steps-builder';
import { StoreOutage } from '../engine/team/store-outage';
import { WORKER_SEEN_MS } from '../engine/team/team-worker';
import { formatWall } from '../engine/zoned-time';
import { localZone } from '../engine/messaging/recipient-zone';
import { teamBatchRefusal } from '../../shared/team-batch';
import { writeFilesZip } from '../engine/exporters/export-zip';
import { jobInputFile } from '../engine/read-models/job-views';
import { teamAnswerFile } from '../engine/team/team-answer-file';
import { withAbsentSource } from './absent-source';
import { teamWords } from './desk-words';
import { existsSync } from 'node:fs';
import { InvoiceDecisions } from '../engine/invoices/invoice-decisions';
import { PgReviewStore } from '../engine/store/pg/pg-review-store';

/** Tier comparisons are rows of one data folder (compare/tier-comparison.ts); a team's store has none. */
const NO_TEAM_COMPARISON =
  "A tier comparison is made in one computer's data folder, not in a team's shared store. Compare a batch created without --store on that computer (Compare tiers… in its window, or `batchdesk compare <batch-id> --tiers basic,standard`).";

/** A team's item keeps its file on the computer that planned its batch. */
const absentSource = (path: string, batchId: string): string =>
  `The source file ${path} is not on this computer: the items of the team's batch ${batchId} were read from files on the computer that created it. Open the batch's page there to see it.`;

/** How often a window on the team's store reads its batches again: the workers' changes reach no event here. */
const WATCH_MS = 1_000;

/** A shared batch's row by its full id (Control.resolveBatchId gives one). */
async function sharedRow(store: PgQueueStore, id: string): Promise<BatchRow> {
  const row = await store.batch(id);
  if (!row) throw new NotFoundError(`No batch "${id}" in the shared store.`, { code: 'no_batch', batch: id });
  return row;
}

/** The team's batch a follow-up takes; one of this computer's data folder is named as such, with what to do. */
async function teamParent(team: SharedStoreHandle, engine: Engine, from: string): Promise<string> {
  if ((await team.store.resolveBatchId(from)) === null && engine.batches.resolveId(from) !== null) {
    throw new UserError(
      `Batch ${from} is in this computer's data folder, not in the shared store: make its follow-up here, without --store (\`batchdesk batch create CAPABILITY --from ${from}\`).`,
      { code: 'local_batch_in_team', batch: from },
    );
  }
  return team.control.resolveBatchId(from);
}

/** Reads the team's batches every second and names each one whose summary changed (one new since, too). */
function watchTeam(team: SharedStoreHandle, listener: (batchId: string) => void): () => void {
  const seen = new Map<string, string>();
  let reading = false;
  let primed = false;
  const look = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      for (const b of await team.control.summaries()) {
        const now = JSON.stringify(b);
        if (seen.get(b.id) === now) continue;
        const first = !seen.has(b.id);
        seen.set(b.id, now);
        // The first read only learns what is there: the window listed those itself.
        if (!first || primed) listener(b.id);
      }
      primed = true;
    } catch {
      // The store is away: read again at the next tick; the window keeps what it shows.
    } finally {
      reading = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), WATCH_MS);
  return () => clearInterval(timer);
}

/** `local` opens this computer's data folder (its keys, settings and opt-out list) on first use. */
export function teamDesk(team: SharedStoreHandle, local: () => Engine, closeEngine: () => void): Desk {
  const outage = (say: (line: string) => void): StoreOutage => new StoreOutage({ clock: team.clock, logger: local().logger, say, store: team.url });
  return {
    control: team.control,
    storeFlag: ' --store URL',
    description: team.description,
    url: team.url,
    batchNoun: "the team's batch",
    sampleMs: 1_000,
    sendsHere: false,
    watchesFolders: false,
    engine: local,
    // A new batch is planned here and moved whole to the store; a follow-up is made in the store itself.
    create: async (input, say) =>
      createInTeamStore(local(), team.store, { ...input, ...(input.from !== undefined ? { from: await teamParent(team, local(), input.from) } : {}) }, say),
    skippedRows: async (batchId) => team.store.skippedRows(await team.control.resolveBatchId(batchId)),
    // The team's follow-up is planned in its store: it is made first, unstarted, then asked about.
    embeddingsEstimate: async () => null,
    embeddings: async (parent, tier, say) => {
      try {
        const [made] = await local().teamFollowUp(team.store, parent, { capability: 'embeddings', tier }, say);
        if (!made) throw new Error('the embeddings follow-up was not made');
        return { id: made.id, made: await team.control.summary(made.id) };
      } catch (e) {
        if (!(e instanceof AlreadyFollowed)) throw e;
        return { id: e.same.id, made: null };
      }
    },
    sendingWords: (api) =>
      `Worker ${team.worker} on ${team.description}: sending to ${api.description}${api.sandbox ? '\nNote: every worker started without an API has its own embedded sandbox; give the team one with --api-url.' : ''}`,
    send: async (target, o) => {
      // Once this worker is under way, a store that drops is waited for, as the worker's own loop does.
      const away = outage(o.say);
      for (const id of o.scope) {
        const row = await away.retry(() => team.store.batch(id));
        // A batch scheduled for later (`--at`) starts at its time, on whichever worker is up then.
        if (row && row.started_at === null && row.scheduled_at !== null && row.scheduled_at > team.clock.now()) {
          const when = `${formatWall(row.scheduled_at, localZone())} ${localZone()}`;
          o.say(
            o.batchIds !== null
              ? `Batch ${id} is scheduled for ${when}: this worker waits for it, then sends it.`
              : `Batch ${id} is scheduled for ${when}: left for then (a standing worker, \`run --watch --store\`, starts it).`,
          );
          continue;
        }
        await away.retry(() => team.store.start(id));
      }
      if (o.stay)
        o.say(
          'Staying on (--watch): batches started later (`batchdesk run ID --store URL` from any computer) and resumed ones are picked up; stop with Ctrl-C or SIGTERM.',
        );
      o.looked?.();
      const worker = await local().runTeam(target, team, { batchIds: o.batchIds, signal: o.signal, stay: o.stay === true, say: o.say });
      return worker.left;
    },
    patiently: (fn, say) => outage(say).retry(fn),
    refusal: teamBatchRefusal,
    onChange: (listener) => watchTeam(team, listener),
    redactions: (id) => team.store.redactions(id),
    words: teamWords(team.description),
    // The team's reviews and supplier memory are in its store, by the store's job ids: every desk decides and learns there.
    reviews: new InvoiceDecisions(new PgReviewStore(team.store), () => team.clock.now(), ' --store URL'),
    einvoiceCount: (id) => team.store.einvoices(id),
    // The same engine code as the data folder's, over the team's tables; each computer's files are its own.
    forget: async (target, _raw, opts) => ({
      where: team.description,
      store: await forgetInStore(new PgForgetStore(team.store.pool, () => team.clock.now()), target, opts),
      files: null,
    }),
    // The store's results and files, and this computer's own files of the team's batches.
    retention: {
      run: (o) => local().teamRetention({ pool: team.store.pool, clock: team.clock, worker: team.worker }, o),
      log: (limit) => teamRetentionLog(team.store.pool, limit),
      ruleOf: (id) => teamRuleOfBatch(team.store.pool, id),
      // The team's own default, kept in the store: the same for every worker and desk.
      defaults: async () => ({ ...(await teamRetentionDefault(team.store.pool)), from: TEAM_DEFAULT_ORIGIN }),
      setDefault: (key, days) => setTeamRetentionDefault(team.store.pool, key, days),
    },
    workers: async () => {
      const [holding, up] = await Promise.all([team.store.workers(), team.store.workersUp(WORKER_SEEN_MS)]);
      return { holding, up };
    },
    exportTable: async (id, format, out, options, replace = false) =>
      exportBatch(sharedPages(team.store, id), (await sharedRow(team.store, id)).capability, format, out, replace, options),
    // Speech and images as the worker that received each stored them in the store.
    exportFiles: async (id, format, out) =>
      exportFiles(sharedResults(team.store, id), { id, capability: (await sharedRow(team.store, id)).capability }, out, format),
    jobPage: (q) => team.store.jobPage(q),
    jobNeighbours: async (q, jobId) => {
      const j = await team.store.job(jobId);
      if (!j || j.batch_id !== q.batchId) throw new NotFoundError(`No job ${jobId} in batch ${q.batchId} in the shared store.`, { code: 'no_job', job: jobId });
      return team.store.jobNeighbours(q, j.seq);
    },
    jobDetail: async (id) => {
      const d = await team.store.jobDetail(id);
      if (!d) throw new NotFoundError(`No job ${id} in the shared store.`, { code: 'no_job', job: id });
      return withAbsentSource(d, absentSource, 'elsewhere');
    },
    // A source file is served only from this computer's disk (the one that planned the batch has it).
    jobFile: async (id, which) => {
      const j = await team.store.job(id);
      if (!j) return null;
      if (which === 'output') return teamAnswerFile(team.store, j, local().dataDir);
      const file = jobInputFile(j);
      return file && existsSync(file.path) ? file : null;
    },
    absentSource,
    exportFilesZip: async (id, out, format) =>
      writeFilesZip(sharedResults(team.store, id), { id, capability: (await sharedRow(team.store, id)).capability }, out, format),
    costReport: () => team.store.costReport(localZone()),
    comparisons: {
      create: async () => {
        throw new UserError(NO_TEAM_COMPARISON, { code: 'team_compare' });
      },
      get: async (group) => {
        throw new NotFoundError(`No tier comparison "${group}" in the shared store. ${NO_TEAM_COMPARISON}`, { code: 'team_compare' });
      },
      // Resolved first, so an unknown batch is named as on the data folder.
      of: async (batchId) => {
        await team.control.resolveBatchId(batchId);
        return [];
      },
    },
    optOuts: {
      name: `the team's opt-out list in ${team.description}`,
      list: () => team.store.optOutList(),
      add: (entries) => team.store.addOptOuts(entries),
      remove: (recipient) => team.store.removeOptOut(recipient),
      told: {
        added: (r) => `Added ${r}: no message will be sent to it by any worker of the team.`,
        already: (r) => `${r} is on the team's opt-out list in ${team.description} already.`,
        removed: (r) => `Removed ${r} from the team's opt-out list in ${team.description}: it can be sent to again.`,
        notOn: (r) => `${r} was not on the team's opt-out list in ${team.description}.`,
      },
    },
    search: (text, f) => team.store.search(text, f),
    // The team's vectors are in the store; the query is embedded with this computer's key.
    searchByMeaning: (target, text, f) => searchByMeaning(teamMeaningSource(team.store), target, text, f),
    keyHere: (row) => local().keyCheckFor(row),
    close: async () => {
      try {
        closeEngine();
      } finally {
        await team.store.close();
      }
    },
  };
}
