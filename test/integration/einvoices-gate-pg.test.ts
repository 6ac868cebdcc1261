// The e-invoice gate case (test/conformance/einvoice-gate-cases.ts) on the team's PostgreSQL
// store: a team worker reads e-invoices beside its full gate, as the local runner does.
import { einvoiceGateCases } from '../conformance/einvoice-gate-cases';
import { usePgRigs } from './store-rigs';

einvoiceGateCases('team worker, PostgreSQL', usePgRigs());
