// The desk over this computer's data folder: the engine's own stores, sent by the local runner.
import type { Engine } from '../engine/engine';
import { existsSync } from 'node:fs';
import type { Desk } from './desk';
import { withAbsentSource } from './absent-source';
import { LOCAL_WORDS } from './desk-words';

/** The data folder's words for an item's file that is gone. */
export const absentSource = (path: string): string =>
  `The source file ${path} was moved or deleted since the batch was created; put it back there to see it, or create the batch again from where it is now.`;

/** `closeEngine` closes the data folder with the desk (the caller's, when it keeps the engine). */
export function localDesk(e: Engine, closeEngine: () => void = () => undefined): Desk {
  return {
    control: e.control,
    storeFlag: '',
    description: `this computer's data folder ${e.dataDir}`,
    url: null,
    batchNoun: 'batch',
    sampleMs: 250,
    sendsHere: true,
    watchesFolders: true,
    engine: () => e,
    create: async (input) => ({
      ...(await e.createBatch({ ...input, ...(input.from !== undefined ? { from: await e.control.resolveBatchId(input.from) } : {}) })),
      teamHas: [],
      teamOptedOut: [],
    }),
    skippedRows: (batchId) => e.skippedRows(batchId),
    embeddingsEstimate: async (parent, tier) =>
      e.embeddingsFollowerOf(parent, tier) !== null ? null : ((await e.preview({ capability: 'embeddings', from: parent, tier })).steps[0] ?? null),
    embeddings: async (parent, tier) => {
      const id = e.embeddingsFollowerOf(parent, tier);
      if (id !== null) return { id, made: null };
      const created = await e.createBatch({ capability: 'embeddings', from: parent, tier });
      return created.batch ? { id: created.batch.id, made: created.batch } : { id: null, problems: created.problems };
    },
    sendingWords: (api) => `Sending to ${api.description}`,
    // The runner starts the scope once it holds the data folder's lock.
    send: async (target, o) => {
      await e.run(target, { batchIds: o.batchIds, signal: o.signal, start: o.scope, ...(o.looked ? { looked: o.looked } : {}) });
      return new Map();
    },
    patiently: (fn) => fn(),
    workers: async () => null,
    redactions: async (id) => e.redactions(id),
    words: LOCAL_WORDS,
    reviews: e.reviews,
    einvoiceCount: async (id) => e.einvoices(id),
    forget: async (target, raw, opts) => {
      const r = await e.forget(target, raw, opts);
      return { where: `this computer's data folder ${e.dataDir}`, store: r.store, files: r.files };
    },
    retention: {
      run: async (o) => e.applyRetention(o),
      log: async (limit) => e.retentionLog(limit),
      ruleOf: async (id) => {
        const r = e.retentionRules.of(id);
        return r.keepFilesDays === null && r.keepResultsDays === null && !r.deleteOriginals ? null : r;
      },
      defaults: async () => ({ ...e.retentionRules.defaults(), from: 'default' }),
      setDefault: async (key, days) => e.settings.set(key, String(days)),
    },
    refusal: () => null,
    onChange: (listener) => e.onChange(listener),
    exportTable: (id, format, out, options, replace = false) => e.exportBatch(id, format, out, replace, options),
    exportFiles: (id, format, out) => e.exportFiles(id, out, format),
    optOuts: {
      name: 'the opt-out list',
      list: async () => e.optOuts.list(),
      add: async (entries) => e.db.transaction(() => entries.filter((x) => e.optOuts.add(x.recipient, x.source)).length)(),
      remove: async (recipient) => e.optOuts.remove(recipient),
      told: {
        added: (r) => `Added ${r}: no message will be sent to it.`,
        already: (r) => `${r} is on the list already.`,
        removed: (r) => `Removed ${r}: it can be sent to again.`,
        notOn: (r) => `${r} was not on the list.`,
      },
    },
    jobPage: async (q) => e.jobPage(q),
    jobNeighbours: async (q, jobId) => e.jobNeighbours(q, jobId),
    jobDetail: async (id) => withAbsentSource(e.jobDetail(id), absentSource, 'moved'),
    jobFile: async (id, which) => {
      if (which === 'output') return e.jobOutputFile(id);
      const file = e.jobInputFile(id);
      return file && existsSync(file.path) ? file : null;
    },
    absentSource,
    exportFilesZip: (id, out, format) => e.exportFilesZip(id, out, format),
    costReport: async () => e.costReport(),
    comparisons: {
      create: (req) => e.compareTiers(req),
      get: async (group) => e.comparison(group),
      of: (batchId) => e.comparisonsOf(batchId),
    },
    search: async (text, f) => e.search(text, f),
    searchByMeaning: (target, text, f) => e.semanticSearch(target, text, f),
    // The data folder's runs read the key from this computer's keychain themselves.
    keyHere: (row) => e.keyCheckFor(row),
    close: async () => closeEngine(),
  };
}
