// One handler per contract method, shared by both transports. Arguments arrive already
// validated by dispatch(); each handler returns exactly the contract's result type.
import { runtimeDescription, sqliteAddonPath } from '../engine/db/sqlite-driver';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import type { ArgOf, MethodName, ResultOf } from '../../shared/contract';
import { RATE_ITEMS, type RateItem } from '../../shared/rates';
import {
  DEFAULT_MESSAGING_CHANNEL,
  MESSAGING_CHANNEL_RE,
  NUMERIC_SETTINGS,
  checkApiUrl,
  readNumericSetting,
  type NumericSettingRule,
} from '../../shared/settings-rules';
import { describe, rateUnit } from '../../shared/capabilities/catalog';
import type { Engine } from '../engine/engine';
import { exportBatch } from '../engine/exporters/export-batch';
import type { StepEstimate } from '../engine/pipeline/projection';
import { JobState } from '../../shared/domain';
import type { KeyView, StepEstimateView } from '../../shared/contract';
import type { KeyInfo } from '../engine/secrets/key-manager';
import { itemFileKindOrRefuse } from '../engine/exporters/export-files';
import { checkedQuery } from '../engine/search/search-query-check';
import type { ZipExport } from '../engine/exporters/export-zip';
import { hasInvoices, kindOfBatch } from '../../shared/capabilities/result-files';
import { WINDOW_EXPORTS } from '../../shared/export-formats';
import { exportFileName, localDay } from './export-file-name';
import type { ConnectionManager } from './connection-manager';
import type { RunController } from './run-controller';
import { testKey } from './key-test';
import { InvalidArgumentError, NotFoundError } from './rpc-errors';
import type { CountryCode } from 'libphonenumber-js';
import { forgetTarget } from '../engine/forget/forget-target';
import type { RetentionRule } from '../engine/retention/retention-rules';
import { optOutKey } from '../engine/messaging/opt-out-list';
import type { Desk } from '../desk/desk';
import { teamCreateProblems } from '../engine/team/team-create';
import { dropsOf, keepDrops, markDropPending, touchDrops } from '../engine/create/upload-drops';

/** What to do about an item a team's store already had or refused, in the window. */
const WINDOW_TODO = { optOut: '', resend: 'tick "Include items already sent or queued" to send it again' };
import { rejectedRowsCsv } from '../engine/importers/rejected-rows';
import { rejectedRowsForm } from '../../shared/csv-words';
import { spreadsheetForm } from '../engine/exporters/sheet-form';
import { importOptOutFile } from '../desk/opt-out-import';
import { OPT_OUT_REFUSALS_SHOWN } from '../../shared/contract-calls';
import { deletionSize, retentionRunView } from './retention-run-view';
import { phoneRegionList } from '../engine/load-on-use';
import { MAIN_OPTION } from '../../shared/capabilities/steps';
import { spreadsheetCsv } from '../../shared/csv-dialect';
import { einvoiceSource } from '../engine/capabilities/einvoice-source';

/** The value of a step's main option (text's task), when the step has one and it is set. */
function mainOptionOf(e: StepEstimate): string | null {
  const main = MAIN_OPTION[e.capability];
  const v: unknown = main === undefined ? undefined : (e.options as Partial<Record<string, unknown>>)[main];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** A step's estimate as the window shows it (units rounded: they are an estimate). */
function stepView(e: StepEstimate): StepEstimateView {
  return {
    capability: e.capability,
    label: e.label,
    tier: e.tier,
    items: e.items,
    units: Math.round(e.units),
    unitName: e.unitName,
    cost: e.cost,
    mainOption: mainOptionOf(e),
    basis: e.why,
  };
}

function keyView(k: KeyInfo): KeyView {
  return {
    id: k.id,
    kind: k.kind,
    label: k.label,
    client: k.client,
    baseUrl: k.base_url,
    last4: k.last4,
    active: k.active,
    rpm: k.rpm,
    createdAt: new Date(k.created_at).toISOString(),
  };
}
export type Handlers = { [M in MethodName]: (arg: ArgOf<M>) => Promise<ResultOf<M>> };

export interface HandlerDeps {
  /** This computer's engine: its keys, settings, rates and hot folders (and the data folder's batches). */
  engine: Engine;
  /** The batches the window shows and acts on: the data folder's, or a team's store's (host opened with `--store URL`). */
  desk: Desk;
  connections: ConnectionManager;
  runs: RunController;
  transport: 'electron' | 'browser';
  version: string;
  /** Native dialogs (Electron); the browser host answers unsupported and the window uses file inputs. */
  openDialog: (kind: 'files' | 'folder' | 'csv') => Promise<{ supported: boolean; paths: string[] }>;
  /**
   * A native "choose a folder to save into" dialog (Electron): the chosen folder, or null when the
   * user cancelled. Absent in the browser host, which downloads a zip instead.
   */
  chooseFolder?: (title: string) => Promise<string | null>;
  /** Shows a file in the system's file manager (Electron's shell); absent in the browser host. */
  showInFolder?: (path: string) => void | Promise<void>;
  /** Export files by download token, for the transport's download route. */
  exports: Map<string, { path: string; fileName: string }>;
  /** Called after settings or keys change so the connection is rebuilt and the window told. */
  onConnectionChanged: () => void;
  /**
   * Which paths a window may name. The browser host accepts only its own uploads: a page must not
   * be able to make the engine read (and send) arbitrary files of the machine.
   */
  pathAllowed: (path: string) => boolean;
  /** Called after a watch folder is added or removed, so the running watchers follow at once. */
  onWatchesChanged?: () => void;
}

function settingsView(engine: Engine): ResultOf<'settings.get'> {
  // Read through the shared rules: a value stored by an older version outside today's bounds is
  // shown clamped instead of failing the result schema (which would hide every setting).
  const num = (rule: NumericSettingRule): number => readNumericSetting(rule, engine.settings.get(rule.key));
  const channel = engine.settings.get('messaging_channel');
  return {
    concurrency: num(NUMERIC_SETTINGS.concurrency),
    rpm: num(NUMERIC_SETTINGS.rpm),
    maxAttempts: num(NUMERIC_SETTINGS.maxAttempts),
    maxWaitMinutes: num(NUMERIC_SETTINGS.maxWaitMinutes),
    messagingChannel: channel !== null && MESSAGING_CHANNEL_RE.test(channel) ? channel : DEFAULT_MESSAGING_CHANNEL,
    apiUrl: engine.settings.get('api_url'),
    phoneCountry: engine.phoneCountry(),
  };
}

/** A watched folder with its own retention rule (engine/retention), as the window lists it. */
function withRetention(w: ResultOf<'watch.add'>, rule: RetentionRule | null): ResultOf<'watch.add'> {
  return { ...w, keepFilesDays: rule?.keepFilesDays ?? null, keepResultsDays: rule?.keepResultsDays ?? null, deleteOriginals: rule?.deleteOriginals ?? false };
}

function rateViews(engine: Engine): ResultOf<'rates.list'> {
  return engine.rates.all().map((r) => ({ ...r, unit: rateUnit(r.item) }));
}

/** The zip `write` streams, as the file `path` (replaced); a zip that failed half way is removed. */
async function ublZipFile(path: string, write: (out: Writable) => Promise<ZipExport>): Promise<ZipExport> {
  const out = createWriteStream(path);
  try {
    return await write(out);
  } catch (e) {
    out.destroy();
    rmSync(path, { force: true });
    throw e;
  }
}

/** Why there is nothing to save or download yet, and what to do. */
export function nothingSucceeded(batchName: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `Nothing in "${batchName}" has succeeded yet, so it has no result files. Start or resume the batch, and try again once items are done.`,
    { code: 'nothing_succeeded', name: batchName },
  );
}

export function createHandlers(d: HandlerDeps): Handlers {
  const { engine, desk } = d;
  const c = desk.control;
  // The window's process sends the data folder's batches; a team's store is sent by its workers.
  const kick = (): void => {
    if (desk.sendsHere) d.runs.kick();
  };
  const summary = async (id: string) => c.summary(await c.resolveBatchId(id));
  const checkPaths = (paths: readonly string[]): void => {
    const refused = paths.filter((p) => !d.pathAllowed(p));
    if (refused.length > 0) {
      const path = refused[0] ?? '';
      throw new InvalidArgumentError(
        `${path}: in the browser, add files by dropping or choosing them (they are uploaded to the data folder first). To use files in place, use the desktop app or the command line.`,
        { code: 'path_not_uploaded', path },
      );
    }
  };
  return {
    'app.info': async () => ({
      version: d.version,
      transport: d.transport,
      dataDir: engine.dataDir,
      desk: desk.description,
      // A team's store has a URL; the data folder has none.
      store: desk.url === null ? ('local' as const) : ('team' as const),
      nativeDialogs: d.transport === 'electron',
      runtime: runtimeDescription(),
      sqliteAddon: sqliteAddonPath(),
    }),
    'connection.get': () => d.connections.view(),
    'batches.list': async () => (await c.summaries()).reverse(),
    'batches.get': async ({ id }) => summary(id),
    'batches.skippedRows': async ({ id }) => ({ rows: await desk.skippedRows(id) }),
    'batches.preview': async (arg) => {
      checkPaths(arg.paths ?? []);
      const { plan, sample, steps } = await engine.preview(arg);
      return {
        items: plan.count,
        units: { name: describe(arg.capability).unit, estimated: plan.estimatedUnits },
        estimatedCost: plan.estimatedCost,
        rate: plan.rate,
        channel: plan.channel,
        sample,
        problems: plan.problems,
        alreadyQueued: plan.alreadyQueued,
        einvoices: plan.einvoices,
        steps: steps.map(stepView),
        nameParts: plan.nameParts,
      };
    },
    'batches.rejectedRows': async ({ source, problems, csvLocale }) => {
      checkPaths([source]);
      try {
        return await rejectedRowsCsv(source, problems, csvLocale === undefined ? undefined : rejectedRowsForm(csvLocale));
      } catch (err) {
        throw new InvalidArgumentError(
          `${source}: could not read the file to take its refused rows (${err instanceof Error ? err.message : String(err)}). Drop it again and retry.`,
          { code: 'rejected_rows_unreadable', source },
        );
      }
    },
    'batches.create': async (arg) => {
      checkPaths(arg.paths ?? []);
      const refused = desk.refusal(arg.capability, arg.from !== undefined);
      if (refused !== null) throw new InvalidArgumentError(refused.words, refused.refusal);
      // The browser drops a batch is made from are held until its items are written, so the sweep
      // never removes a file the import reads; which files items use the sweep asks of the jobs.
      const drops = dropsOf(engine.uploadsDir, arg.paths ?? []);
      const release = await engine.dropLocks.forCreate(drops);
      let r: Awaited<ReturnType<typeof desk.create>>;
      try {
        if (desk.sendsHere) touchDrops(engine.uploadsDir, drops);
        // A team's store alone knows its items: the whole drops stay, unmarked before the create so
        // that a crash after it cannot leave them to the sweep (marked again when none was made).
        const kept = desk.sendsHere ? [] : keepDrops(engine.uploadsDir, drops);
        r = await desk.create(arg);
        if (!r.batch) for (const d of kept) markDropPending(engine.uploadsDir, d);
      } finally {
        release();
      }
      const made = { problems: teamCreateProblems(r, WINDOW_TODO), alreadyQueued: r.alreadyQueued, estimates: r.estimates.map(stepView) };
      if (!r.batch) return { ...made, batch: null, steps: [] };
      // In the window, creating a batch is starting it (Start batch), with every step of its pipeline;
      // one scheduled for later keeps its time.
      await c.start([r.batch.id]);
      kick();
      return { ...made, batch: await c.summary(r.batch.id), steps: await Promise.all(r.steps.map((b) => c.summary(b.id))) };
    },
    'batches.start': async ({ id }) => {
      const bid = await c.resolveBatchId(id);
      // Start pressed on a scheduled batch: now, not at its time.
      await c.start([bid], { now: true });
      kick();
      return await c.summary(bid);
    },
    'batches.schedule': async ({ id, at }) => {
      const summary = await c.schedule(await c.resolveBatchId(id), at);
      // The run loop wakes at the earliest scheduled time: a changed time moves that wake-up.
      kick();
      return summary;
    },
    'batches.pause': async ({ id }) => {
      const bid = await c.resolveBatchId(id);
      await c.pause(bid);
      return await c.summary(bid);
    },
    'batches.resume': async ({ id, budget, switchApi }) => {
      const bid = await c.resolveBatchId(id);
      // On a team's store a step whose key the API refused goes on with this computer's key for it.
      await c.resume(bid, { ...(budget !== undefined ? { budget } : {}), switchApi: switchApi === true, keyHere: desk.keyHere });
      kick();
      return await c.summary(bid);
    },
    'batches.cancel': async ({ id }) => {
      const bid = await c.resolveBatchId(id);
      await c.cancel(bid);
      return await c.summary(bid);
    },
    'batches.retry': async ({ id }) => {
      const bid = await c.resolveBatchId(id);
      const requeued = await c.retry(bid);
      kick();
      return { batch: await c.summary(bid), requeued };
    },
    'batches.export': async ({ id, format, csvLocale, timeZone }) => {
      const bid = await c.resolveBatchId(id);
      const batch = await c.summary(bid);
      // The menu's record (shared/export-formats.ts) says which exports only a batch of invoices has.
      const offered = WINDOW_EXPORTS[format];
      if (offered.invoices !== null && !hasInvoices(batch.capability))
        throw new InvalidArgumentError(
          `The ${format} export is for invoices read by OCR; this is ${kindOfBatch(batch.capability)}. Export it as CSV or JSON instead.`,
          { code: 'export_format', format: offered.invoices.refusedAs, capability: batch.capability },
        );
      const dir = join(engine.dataDir, 'exports');
      mkdirSync(dir, { recursive: true });
      const fileName = exportFileName(batch.name, bid, offered.ending, localDay(engine.clock.now()));
      const path = join(dir, fileName);
      const token = randomBytes(16).toString('hex');
      // The exports folder is the window's own: a new export of the batch replaces the last.
      if (format === 'einvoices') {
        if (batch.counts.succeeded === 0) throw nothingSucceeded(batch.name);
        const zip = await ublZipFile(path, (out) => desk.exportFilesZip(bid, out, 'ubl'));
        d.exports.set(token, { path, fileName });
        return { fileName, rows: zip.entries - (zip.ubl === null ? 0 : 1), token, ubl: zip.ubl };
      }
      const sheet = csvLocale === undefined ? {} : { csv: spreadsheetCsv(csvLocale), sheet: spreadsheetForm(csvLocale, timeZone) };
      const rows = await desk.exportTable(bid, format, path, sheet, true);
      d.exports.set(token, { path, fileName });
      return { fileName, rows, token };
    },
    'batches.saveFiles': async ({ id, title }) => {
      const bid = await c.resolveBatchId(id);
      const batch = await c.summary(bid);
      // Refused before the dialog opens: nothing to choose a folder for.
      itemFileKindOrRefuse(batch);
      if (!d.chooseFolder) {
        throw new InvalidArgumentError(
          'Saving to a folder needs the desktop app. In the browser, use Download results (.zip); on the command line, `batchdesk export <batch-id> --format files --out DIR`.',
          { code: 'save_needs_desktop' },
        );
      }
      if (batch.counts.succeeded === 0) throw nothingSucceeded(batch.name);
      const dir = await d.chooseFolder(title ?? `Save the results of "${batch.name}" to a folder`);
      if (dir === null) return { dir: null, written: 0, noFile: 0, problems: [], problemCount: 0 };
      return desk.exportFiles(bid, 'files', dir);
    },
    'jobs.list': async (arg) => desk.jobPage(arg),
    'jobs.showSource': async ({ id }) => {
      if (!d.showInFolder)
        throw new InvalidArgumentError('Showing the source file in its folder needs the desktop app; here the source is shown in the job dialog.', {
          code: 'show_needs_desktop',
        });
      const job = await desk.jobDetail(id);
      const v = job.sourceView;
      if (v.kind !== 'file')
        throw new InvalidArgumentError(`Job ${id} has no source file (its input is a CSV row or a message).`, { code: 'no_source_file', job: id });
      const file = await desk.jobFile(id, 'source');
      if (!file) throw new NotFoundError(v.missing ?? desk.absentSource(v.path, job.batchId), { code: 'source_missing', job: id });
      await d.showInFolder(file.path);
      return { shown: true as const };
    },
    'jobs.neighbours': async ({ jobId, ...q }) => desk.jobNeighbours(q, jobId),
    'search.query': async ({ query: text, batchId, capability, limit, semantic }) => {
      const query = checkedQuery(text);
      const filters = { batchId: batchId === undefined ? undefined : await c.resolveBatchId(batchId), capability, limit: limit ?? 100 };
      const hits = semantic ? await desk.searchByMeaning((await d.connections.get()).target, query, filters) : await desk.search(query, filters);
      return { hits: hits.map((h) => ({ ...h, state: JobState.parse(h.state) })) };
    },
    'jobs.get': async ({ id }) => desk.jobDetail(id),
    'jobs.sourceXml': async ({ id }) => {
      const file = await desk.jobFile(id, 'source');
      return file === null ? null : einvoiceSource(file);
    },
    // The desk's reviews: a team's are in its store, by its job ids (those the job dialog shows).
    'reviews.get': async ({ jobId }) => desk.reviews.view(jobId),
    'reviews.save': async ({ jobId, invoice, decision, note }) =>
      // The window runs as this computer's user: the reviewer is the OS user name.
      desk.reviews.save(jobId, { invoice, decision, note, by: userInfo().username }),
    'reviews.counts': async ({ batchId }) => desk.reviews.counts(await c.resolveBatchId(batchId)),
    'keys.list': async () => engine.keys.list().map(keyView),
    'keys.add': async (arg) => {
      const k = await engine.keys.add({ kind: arg.kind, label: arg.label, secret: arg.secret, client: arg.client, baseUrl: arg.baseUrl, rpm: arg.rpm ?? null });
      d.onConnectionChanged();
      return keyView(k);
    },
    'keys.update': async ({ id, ...patch }) => {
      if (!engine.keys.get(id)) throw new NotFoundError(`No key ${id}.`, { code: 'no_key', key: id });
      const k = engine.keys.update(id, patch);
      d.onConnectionChanged();
      return keyView(k);
    },
    'keys.remove': async ({ id }) => {
      if (!engine.keys.get(id)) throw new NotFoundError(`No key ${id}.`, { code: 'no_key', key: id });
      await engine.keys.remove(id);
      d.onConnectionChanged();
      return { removed: true };
    },
    'keys.test': async ({ kind }) => testKey(await d.connections.get(), kind, settingsView(engine).messagingChannel),
    // The desk's list: on a team's store, the one every worker checks.
    'optouts.list': async () =>
      (await desk.optOuts.list()).map((o) => ({ recipient: o.recipient, addedAt: new Date(o.addedAt).toISOString(), source: o.source })),
    'optouts.add': async ({ recipient }) => {
      const key = optOutKey(recipient);
      if (!key.ok)
        throw new InvalidArgumentError(key.reason, { code: 'recipient_unreadable', value: recipient, kind: recipient.includes('@') ? 'email' : 'phone' });
      return { added: (await desk.optOuts.add([{ recipient: key.value, source: 'added in the window' }])) > 0, recipient: key.value };
    },
    // Read by the engine's reader and added to the desk's list, counted as `optout import` counts.
    'optouts.import': async ({ path }) => {
      checkPaths([path]);
      const r = await importOptOutFile(desk.optOuts, path);
      if (!r.ok) throw new InvalidArgumentError(r.message, { code: 'optout_file', path, why: r.why });
      const { refused, ...counts } = r;
      return { ...counts, refused: refused.slice(0, OPT_OUT_REFUSALS_SHOWN), refusedCount: refused.length };
    },
    'optouts.remove': async ({ recipient }) => {
      const key = optOutKey(recipient);
      return { removed: key.ok && (await desk.optOuts.remove(key.value)) };
    },
    'privacy.forget': async ({ value, country, dryRun }) => {
      const t = forgetTarget(value, country?.toUpperCase() as CountryCode | undefined);
      if (!t.ok) throw new InvalidArgumentError(t.reason, { code: 'forget_unreadable', value });
      const r = await desk.forget(t.target, value, { dryRun: dryRun === true });
      return {
        dryRun: dryRun === true,
        replaced: r.store.replaced,
        jobs: r.store.jobs.length,
        embeddings: r.store.embeddings,
        searchEntries: r.store.searchEntries,
        cancelled: r.store.cancelled,
        optOutKeptAsHash: r.store.optOutHashed,
        filesRewritten: r.files?.rewritten.map((f) => f.path) ?? [],
        filesDeleted: r.files?.deleted.map((f) => f.path) ?? [],
        notDone: [...r.store.notPurged, ...(r.files?.unread.map((f) => `${f.path}: ${f.why}`) ?? [])],
      };
    },
    // The desk's log and default: on a team's store, the team's.
    'retention.log': async ({ limit }) => {
      const [defaults, log] = await Promise.all([desk.retention.defaults(), desk.retention.log(limit ?? 200)]);
      return {
        defaults: { keepFilesDays: defaults.keepFilesDays, keepResultsDays: defaults.keepResultsDays },
        entries: log
          .reverse()
          .map((e) => ({ at: new Date(e.at).toISOString(), kind: e.kind, what: e.what, rule: e.rule, parts: e.parts, batchId: e.batchId, jobId: e.jobId })),
      };
    },
    'retention.setDefaults': async ({ keepFilesDays, keepResultsDays }) => {
      // 0 is how the settings keep "kept" (`config set keep_files_days 0`).
      await desk.retention.setDefault('keep_files_days', keepFilesDays ?? 0);
      await desk.retention.setDefault('keep_results_days', keepResultsDays ?? 0);
      const d = await desk.retention.defaults();
      return { keepFilesDays: d.keepFilesDays, keepResultsDays: d.keepResultsDays };
    },
    'retention.run': async ({ dryRun }) => {
      // Sizes are read from the plan first: a real run deletes the files it names.
      const plan = await desk.retention.run({ dryRun: true });
      const sizes = new Map(plan.done.map((d) => [d.what, deletionSize(d)] as const));
      return retentionRunView(dryRun ? plan : await desk.retention.run({ dryRun: false }), sizes, dryRun);
    },
    'watch.list': async () => {
      const rules = engine.retentionRules;
      return engine.hotFolders.list().map((w) => withRetention(w, rules.forWatch(w.id)));
    },
    'watch.add': async (arg) => {
      const { keepFilesDays, keepResultsDays, deleteOriginals, ...watch } = arg;
      const view = engine.hotFolders.add(watch);
      const rule = { keepFilesDays: keepFilesDays ?? null, keepResultsDays: keepResultsDays ?? null, deleteOriginals: deleteOriginals === true };
      engine.retentionRules.setForWatch(view.id, rule);
      d.onWatchesChanged?.();
      return withRetention(view, rule);
    },
    'watch.remove': async ({ id }) => {
      const w = engine.hotFolders.remove(id);
      engine.retentionRules.removeWatch(id);
      d.onWatchesChanged?.();
      return { removed: true, dir: w.dir };
    },
    'watch.resend': async ({ path }) => {
      const e = await engine.hotFolders.resend(path);
      switch (e.kind) {
        case 'taken':
          kick();
          return { taken: true, batchId: e.batchId, seq: e.seq, note: null };
        case 'skipped':
        case 'set_aside':
        case 'refused':
          return { taken: false, batchId: null, seq: null, note: e.note };
        case 'gone':
        case 'passed':
          // Moved or deleted meanwhile, or no longer a file the folder takes: nothing was sent.
          throw new NotFoundError(`${path} is not there any more (moved or deleted), or the folder no longer takes it: nothing was sent.`, {
            code: 'resend_gone',
            path,
          });
        default:
          return e satisfies never;
      }
    },
    'rates.list': async () => rateViews(engine),
    'rates.set': async ({ item, tier, rate }) => {
      const known = RATE_ITEMS.find((i): i is RateItem => i === item);
      if (!known) throw new InvalidArgumentError(`Unknown rate item "${item}". Items: ${RATE_ITEMS.join(', ')}.`, { code: 'unknown_rate_item', item });
      engine.rates.set(known, tier, rate);
      return rateViews(engine);
    },
    'settings.get': async () => settingsView(engine),
    'settings.set': async (patch) => {
      // dispatch() has validated the patch against the shared rules (bounds, http/https only);
      // the API URL is checked again here because it is what the engine will connect to.
      const apiUrl = patch.apiUrl === undefined || patch.apiUrl === null ? patch.apiUrl : checkApiUrl(patch.apiUrl);
      if (apiUrl !== undefined && apiUrl !== null && !apiUrl.ok)
        throw new InvalidArgumentError(apiUrl.message, { code: 'api_url_invalid', url: patch.apiUrl ?? '' });
      const map: Record<string, string | undefined> = {
        [NUMERIC_SETTINGS.concurrency.key]: patch.concurrency?.toString(),
        [NUMERIC_SETTINGS.rpm.key]: patch.rpm?.toString(),
        [NUMERIC_SETTINGS.maxAttempts.key]: patch.maxAttempts?.toString(),
        [NUMERIC_SETTINGS.maxWaitMinutes.key]: patch.maxWaitMinutes?.toString(),
        messaging_channel: patch.messagingChannel,
      };
      // Checked first: a country the phone finder does not know changes nothing.
      if (patch.phoneCountry !== undefined) {
        const set = engine.setPhoneCountry(patch.phoneCountry);
        if (!set.ok) throw new InvalidArgumentError(set.message, { code: 'phone_country_unknown', country: patch.phoneCountry });
      }
      for (const [k, v] of Object.entries(map)) if (v !== undefined) engine.settings.set(k, v);
      if (patch.windowLocale !== undefined) engine.setWindowLocale(patch.windowLocale);
      if (apiUrl !== undefined) {
        if (apiUrl === null) engine.settings.delete('api_url');
        else engine.settings.set('api_url', apiUrl.url);
        d.onConnectionChanged();
      }
      return settingsView(engine);
    },
    'settings.phoneRegions': async () => ({ regions: phoneRegionList() }),
    'costs.report': async () => desk.costReport(),
    'costs.spend': async (q) => c.spend(q),
    'compare.create': async (req) => {
      const view = await desk.comparisons.create(req);
      kick();
      return view;
    },
    'compare.get': async ({ group }) => desk.comparisons.get(group),
    'compare.list': async ({ batchId }) => desk.comparisons.of(batchId),
    'runner.get': async () => d.runs.status,
    'dialogs.open': ({ kind }) => d.openDialog(kind),
  };
}
