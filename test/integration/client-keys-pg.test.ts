// The client key cases (test/conformance/client-key-cases.ts) on the team's PostgreSQL store: keys
// from each machine's keychain, matched by label; each key's limit kept by the team's shared bucket;
// spend by client and key as `report --store` reads it; a key's own API address (key-address-cases.ts).
import { clientKeyCases } from '../conformance/client-key-cases';
import { keyAddressCases } from '../conformance/key-address-cases';
import { usePgRigs } from './store-rigs';

const rigs = usePgRigs();
clientKeyCases('team worker, PostgreSQL', rigs);
keyAddressCases('team worker, PostgreSQL', rigs);
