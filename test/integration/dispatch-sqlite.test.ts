// The dispatch cases (test/conformance/dispatch-cases.ts) run by the local runner on this data
// folder's SQLite file, as `batchdesk run` sends; the same cases run by a team worker on
// PostgreSQL in dispatch-pg.test.ts.
import { dispatchCases } from '../conformance/dispatch-cases';
import { openLocalRig } from './store-rigs';

dispatchCases('local runner, SQLite', openLocalRig);
