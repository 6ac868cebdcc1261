// The client key cases (test/conformance/client-key-cases.ts) on the team's PostgreSQL store: keys
// from each machine's keychain, matched by label; each key's limit kept by the team's shared bucket;
// spend by client and key as `report --store` reads it.
import { clientKeyCases } from '../conformance/client-key-cases';
import { usePgRigs } from './store-rigs';

clientKeyCases('team worker, PostgreSQL', usePgRigs());
