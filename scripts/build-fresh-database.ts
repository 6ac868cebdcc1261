// Part of `npm run build`: writes out/main/fresh-database-vN.sqlite, a database with every
// migration run, which a new data folder copies instead of running them (engine/schema/fresh-database.ts).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFresh } from '../src/main/engine/schema/open-database';
import { FRESH_DATABASE_NAME } from '../src/main/engine/schema/fresh-database';

const outDir = fileURLToPath(new URL('../out/main/', import.meta.url));
// Another schema version's file, from an earlier build, is never copied; it only takes room.
for (const name of readdirSync(outDir)) if (/^fresh-database-v\d+\.sqlite$/.test(name)) rmSync(join(outDir, name));
createFresh(join(outDir, FRESH_DATABASE_NAME), null);
