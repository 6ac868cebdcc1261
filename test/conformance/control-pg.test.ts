// The batch verbs' cases (control-cases.ts) on a team's PostgreSQL store, as `... --store URL` act.
import { controlCases } from './control-cases';
import { usePgRigs } from '../integration/store-rigs';

controlCases('team store, PostgreSQL', usePgRigs());
