// A preview's planner sink (create/preview.ts, and a preview on the import's thread): keeps the
// first jobs, as the window lists them, and writes nothing.
import type { PlanSink } from '../batch-planner';
import type { NewJob } from '../queue/job-store';

export function sampleSink(sample: NewJob[], size: number): PlanSink {
  return {
    add: (j) => {
      if (sample.length < size) sample.push(j);
    },
    discardFrom: (seq) => {
      while (sample.length > 0 && (sample.at(-1)?.seq ?? 0) >= seq) sample.pop();
    },
  };
}
