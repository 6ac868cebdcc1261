// The pipeline cases (test/conformance/pipeline-cases.ts) on the team's store: each batch is made
// as `batch create --store` makes it (planned on one machine, moved to PostgreSQL, or a follow-up
// made in the store), sent by a worker with a data folder of its own, and paused, resumed and
// cancelled as `pause|resume|cancel --store` do. The same cases run on SQLite in pipelines.test.ts.
import { pipelineCases } from '../conformance/pipeline-cases';
import { usePgRigs } from './store-rigs';

pipelineCases('team worker, PostgreSQL', usePgRigs());
