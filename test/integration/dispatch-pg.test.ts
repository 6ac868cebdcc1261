// The dispatch cases (test/conformance/dispatch-cases.ts) run by a team worker on a real
// PostgreSQL store (a throw-away cluster): each batch is planned in one data folder, moved to the
// shared store, and sent by a worker with a data folder of its own, as `run --store` does. The same
// cases run by the local runner on SQLite in dispatch-sqlite.test.ts.
import { dispatchCases } from '../conformance/dispatch-cases';
import { usePgRigs } from './store-rigs';

dispatchCases('team worker, PostgreSQL', usePgRigs());
