// What the end of a sample run reads (dispatch/sample-end.ts), from this data folder's SQLite file
// or from a team's shared store.
import type { SampleReader } from './sample-end';
import type { JobStore } from '../queue/job-store';
import type { BatchStore } from '../queue/batch-store';
import type { PipelineStore } from '../pipeline/pipeline-store';
import type { PgQueueStore } from '../store/pg/pg-queue-store';

export function localSampleReader(jobs: JobStore, batches: BatchStore, pipelines: PipelineStore): SampleReader {
  return {
    sampleState: (id) => Promise.resolve(jobs.sampleState(id)),
    members: (pipelineId) => Promise.resolve(pipelines.members(pipelineId)),
    batch: (id) => Promise.resolve(batches.get(id)),
    open: (id) => Promise.resolve(pipelines.openCount(id)),
    spent: (id) => Promise.resolve(jobs.spent(id).spent),
    leftFigures: (id) => Promise.resolve(jobs.leftFigures(id)),
  };
}

export function sharedSampleReader(store: Pick<PgQueueStore, 'sampleState' | 'members' | 'batch' | 'stats' | 'leftFigures'>): SampleReader {
  return {
    sampleState: (id) => store.sampleState(id),
    members: (pipelineId) => store.members(pipelineId),
    batch: (id) => store.batch(id),
    open: async (id) => {
      const c = (await store.stats(id)).counts;
      return c.queued + c.running + c.retry_wait;
    },
    spent: async (id) => (await store.stats(id)).spent,
    leftFigures: (id) => store.leftFigures(id),
  };
}
