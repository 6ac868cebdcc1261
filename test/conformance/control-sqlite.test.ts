// The batch verbs' cases (control-cases.ts) on this data folder's SQLite file.
import { controlCases } from './control-cases';
import { openLocalRig } from '../integration/store-rigs';

controlCases('data folder, SQLite', openLocalRig);
