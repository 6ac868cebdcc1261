// The pause cases (test/conformance/pause-cases.ts) on the team's PostgreSQL store: planned on
// one machine, sent by a worker with a data folder of its own, paused, resumed and cancelled as
// `pause|resume|cancel --store` do. The same cases run on SQLite in pauses.test.ts.
import { pauseCases } from '../conformance/pause-cases';
import { usePgRigs } from './store-rigs';

pauseCases('team worker, PostgreSQL', usePgRigs());
