// What the planner (batch-planner.ts) looks things up in while it imports: rates, the messaging
// default, earlier deliveries, the opt-out list and how a file is shown.
import type { PlanDeps } from '../batch-planner';
import type { RateBook } from '../costs/rate-book';
import type { Settings } from '../settings';
import type { JobStore } from '../queue/job-store';
import type { Db } from '../db/connection';
import { KnownFingerprints } from '../queue/known-fingerprints';
import type { OptOutList } from '../messaging/opt-out-list';
import type { UploadPaths } from './upload-paths';

export interface PlanSources {
  db: Db;
  rates: RateBook;
  settings: Settings;
  jobs: JobStore;
  optOuts: OptOutList;
  uploads: UploadPaths;
}

/**
 * The planner's lookups, read afresh when an import or preview starts (a setting or opt-out
 * changed since counts); the fingerprints of earlier batches are prepared at the first import
 * that asks, then kept.
 */
export function planDepsOf(s: PlanSources): () => PlanDeps {
  let known: KnownFingerprints | null = null;
  return () => ({
    rates: s.rates,
    messagingDefault: s.settings.get('messaging_channel') ?? undefined,
    label: (p) => s.uploads.label(p),
    delivered: (fp) => s.jobs.delivered(fp),
    knownFingerprints: (fps) => (known ??= new KnownFingerprints(s.db)).among(fps),
    // An empty list (the usual case) costs a million-row import nothing; otherwise each
    // recipient is looked up once per import (lists repeat recipients).
    ...(s.optOuts.count() > 0 ? { optedOut: s.optOuts.finder() } : {}),
  });
}
