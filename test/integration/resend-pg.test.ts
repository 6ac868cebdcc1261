// The resend cases (test/conformance/resend-cases.ts) for a team: a batch made with
// `batch create --store` leaves out what the team's shared store already has (any desk's copy),
// as a batch made on one computer leaves out what its data folder has (resend.test.ts).
import { resendCases } from '../conformance/resend-cases';
import { usePgRigs } from './store-rigs';

resendCases('team worker, PostgreSQL', usePgRigs());
