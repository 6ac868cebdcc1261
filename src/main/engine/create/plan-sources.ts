// What the planner (batch-planner.ts) looks things up in while it imports: rates, the messaging
// default, earlier deliveries, the opt-out list and how a file is shown.
import type { PlanDeps } from '../batch-planner';
import type { RateBook } from '../costs/rate-book';
import type { Settings } from '../settings';
import type { JobStore } from '../queue/job-store';
import type { KnownFingerprints } from '../queue/known-fingerprints';
import type { OptOutList } from '../messaging/opt-out-list';
import type { UploadPaths } from './upload-paths';

export interface PlanSources {
  rates: RateBook;
  settings: Settings;
  jobs: JobStore;
  optOuts: OptOutList;
  uploads: UploadPaths;
  /** The fingerprints of earlier batches, prepared at the first import that asks. */
  known: () => KnownFingerprints;
}

/** Read when an import or preview starts: a setting or opt-out changed since counts. */
export function planDepsOf(s: PlanSources): PlanDeps {
  return {
    rates: s.rates,
    messagingDefault: s.settings.get('messaging_channel') ?? undefined,
    label: (p) => s.uploads.label(p),
    delivered: (fp) => s.jobs.delivered(fp),
    knownFingerprints: (fps) => s.known().among(fps),
    // An empty list (the usual case) costs a million-row import nothing; otherwise each
    // recipient is looked up once per import (lists repeat recipients).
    ...(s.optOuts.count() > 0 ? { optedOut: s.optOuts.finder() } : {}),
  };
}
