// The pause cases (test/conformance/pause-cases.ts) on this data folder's SQLite file, sent by the
// local runner; the same cases run on the team's PostgreSQL store in pauses-pg.test.ts.
import { pauseCases } from '../conformance/pause-cases';
import { openLocalRig } from './store-rigs';

pauseCases('local runner, SQLite', openLocalRig);
