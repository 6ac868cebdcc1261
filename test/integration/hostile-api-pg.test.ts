// The hostile-API cases (test/conformance/hostile-cases.ts) sent by a team worker on the team's
// PostgreSQL store: the waits a server gives clamped, deadlines, false successes, huge bodies and
// echoed keys handled as on one computer (hostile-api.test.ts), with nothing of the key in the
// shared store or on either machine.
import { hostileCases } from '../conformance/hostile-cases';
import { usePgRigs } from './store-rigs';

hostileCases('team worker, PostgreSQL', usePgRigs());
