// The e-invoice gate case (test/conformance/einvoice-gate-cases.ts) on this data folder's SQLite
// with the local runner; einvoices-gate-pg.test.ts runs it on a team's store.
import { einvoiceGateCases } from '../conformance/einvoice-gate-cases';
import { openLocalRig } from './store-rigs';

einvoiceGateCases('local runner, SQLite', openLocalRig);
