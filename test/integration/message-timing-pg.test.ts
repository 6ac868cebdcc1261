// The message timing cases (test/conformance/timing-cases.ts) on the team's PostgreSQL store, the
// test clock given to the store and to both machines (a worker otherwise takes the database
// server's): quiet hours, --at and the recipient gap as on one computer (message-timing.test.ts).
import { timingCases } from '../conformance/timing-cases';
import { usePgRigs } from './store-rigs';

timingCases('team worker, PostgreSQL', usePgRigs());
