// Which of many delivery fingerprints some job already has, in one query per GROUP of them. An
// import checks every item against earlier batches; a query per item cost a read transaction
// each (half the time of importing 100,000 rows). This only narrows: a fingerprint found here is
// confirmed by JobStore.delivered, which compares what the jobs actually deliver. Only visible
// batches' jobs are in job_fingerprints (migration 17), as only those count as delivered. With
// none at all (a new data folder's first imports) each group costs one look instead of a query:
// binding 512 values and sorting them for IN cost a 100,000-row import about 30 ms of its busiest
// thread on an empty table. Asked each time, not once per import, so a batch sealed meanwhile by
// another process counts from its commit on, as before.
import type { Db } from '../db/connection';

const GROUP = 512;

export class KnownFingerprints {
  private readonly some;
  private readonly any;

  constructor(db: Db) {
    this.any = db.prepare(`SELECT EXISTS (SELECT 1 FROM job_fingerprints)`).pluck();
    this.some = db
      .prepare(`SELECT fingerprint FROM job_fingerprints WHERE fingerprint IN (${Array.from({ length: GROUP }, () => '?').join(',')})`)
      .pluck()
      .safeIntegers(true);
  }

  /** The fingerprints among `fps` that at least one job of a visible batch has (in any state). */
  among(fps: readonly bigint[]): Set<bigint> {
    const found = new Set<bigint>();
    if (this.any.get() === 0) return found;
    for (let i = 0; i < fps.length; i += GROUP) {
      const group = fps.slice(i, i + GROUP);
      // The statement takes exactly GROUP values: a short group repeats its first one.
      const first = group[0] as bigint;
      while (group.length < GROUP) group.push(first);
      // Bound as one array, read in one call (a spread of 512 arguments and an iterator cost more than the query).
      for (const fp of this.some.all(group) as bigint[]) found.add(fp);
    }
    return found;
  }
}
