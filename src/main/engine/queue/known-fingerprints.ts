// Which of many delivery fingerprints some job already has, in one query per GROUP of them. An
// import checks every item against earlier batches; a query per item cost a read transaction
// each (half the time of importing 100,000 rows). This only narrows: a fingerprint found here is
// confirmed by JobStore.delivered, which compares what the jobs actually deliver. Only visible
// batches' jobs are in job_fingerprints (migration 17), as only those count as delivered.
import type { Db } from '../db/connection';

const GROUP = 512;

export class KnownFingerprints {
  private readonly some;

  constructor(db: Db) {
    this.some = db
      .prepare(`SELECT fingerprint FROM job_fingerprints WHERE fingerprint IN (${Array.from({ length: GROUP }, () => '?').join(',')})`)
      .pluck()
      .safeIntegers(true);
  }

  /** The fingerprints among `fps` that at least one job of a visible batch has (in any state). */
  among(fps: readonly bigint[]): Set<bigint> {
    const found = new Set<bigint>();
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
