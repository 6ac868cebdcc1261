// The capability cases (test/conformance/capability-cases.ts) on the team's PostgreSQL store:
// speech and images read back from the shared store as exports read them, embeddings kept there
// as Float32, CRM writes once, as on one computer (capabilities.test.ts).
import { capabilityCases } from '../conformance/capability-cases';
import { usePgRigs } from './store-rigs';

capabilityCases('team worker, PostgreSQL', usePgRigs());
