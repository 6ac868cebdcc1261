#!/usr/bin/env node
// Launcher for the built command line (npm run build writes out/main/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { NODE_RANGE, supportsNode } from './supported-node.js';

// Say which Node Batchdesk runs on before an unsupported one fails in some stranger way.
if (!supportsNode(NODE_RANGE, process.versions.node)) {
  process.stderr.write(
    `batchdesk needs Node 22.22.2 or later 22.x, or 24.15 or later (24 LTS recommended); this is Node ${process.versions.node}. Install a current Node, or run the desktop app, which carries its own.\n`,
  );
  process.exit(2);
}

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('batchdesk is not built yet: run `npm run build` in the Batchdesk folder first.\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
