// `npm run web`: the engine and the window's UI served to the local browser, for machines
// without a desktop session or where Electron's binary cannot be installed.
import { parseArgs } from 'node:util';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../engine/data-dir';
import { startHost } from './host-server';
import { chooseStore } from '../engine/store/store-url';
import { EngineClient, EngineStartError } from '../service/engine-process/engine-client';
import { nodeChildEngine } from '../service/engine-process/node-child';
import { readerThread } from '../service/reader/reader-client';
import { callFor } from '../service/engine-link';

const USAGE = `npm run web -- [--port N] [--data-dir DIR] [--api-url URL] [--store URL] [--settle SECONDS]

Starts Batchdesk's engine and serves its window on http://127.0.0.1:PORT (a random port by
default). Open the printed URL: it carries this launch's access token.
With --store postgresql://user@host:5432/database (or BATCHDESK_STORE) the window works on the
team's shared store: its Batches screen lists the team's batches, live, and acts on them for every
worker; the team's workers (\`batchdesk run --store URL\`) send them.
With --settle SECONDS a watched folder's file is taken once it held still that long (default 3,
as \`batchdesk run --watch --settle\`).
`;

async function main(): Promise<void> {
  let values;
  try {
    values = parseArgs({
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'api-url': { type: 'string' },
        store: { type: 'string' },
        settle: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be 0-65535.\n`);
    process.exit(2);
  }
  let choice;
  try {
    choice = chooseStore(values.store);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const settle = values.settle === undefined ? undefined : Number(values.settle);
  if (settle !== undefined && (!Number.isFinite(settle) || settle < 0.1 || settle > 600)) {
    process.stderr.write(`--settle must be seconds between 0.1 and 600 (got "${values.settle ?? ''}").\n`);
    process.exit(2);
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const here = dirname(fileURLToPath(import.meta.url));
  // The engine runs in a process of its own (out/main/engine.js), so that an import or a batch
  // being sent never holds up this server's answers; it opens the data folder and the store itself.
  // The window's reads are answered by a thread of this process (out/main/reader.js) from the data
  // folder's database opened read-only, so that they do not wait for the engine's thread either.
  const engine = new EngineClient(
    nodeChildEngine(join(here, 'engine.js')),
    {
      dataDir,
      transport: 'browser',
      apiUrl: values['api-url'] ?? process.env.BATCHDESK_API_URL ?? null,
      storeUrl: choice.kind === 'postgresql' ? choice.url : null,
      ...(settle === undefined ? {} : { watchStableMs: Math.round(settle * 1000) }),
    },
    {},
    { reader: readerThread(join(here, 'reader.js')) },
  );
  await engine.ready();
  const host = await startHost({ engine, rendererDir: join(here, '..', 'renderer'), port });
  const conn = await callFor(engine, 'connection.get', {});
  const info = await callFor(engine, 'app.info', {});
  process.stdout.write(
    `Batchdesk is running. Open this URL in your browser:\n\n  ${host.openUrl}\n\nData folder: ${dataDir}\nSending to: ${conn.description}\n${choice.kind === 'postgresql' ? `Batches: ${info.desk} (sent by the team's workers)\n` : ''}Stop with Ctrl-C (unfinished batches continue at the next start).\n`,
  );
  engine.start();
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    void host
      .close()
      .then(() => engine.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main().catch((e: unknown) => {
  process.stderr.write(`batchdesk web: ${e instanceof Error ? e.message : String(e)}\n`);
  // As the command line: 4 when it could not start (data folder busy, keychain or shared store
  // unavailable), 1 for anything else.
  const kind = e instanceof EngineStartError ? e.kind : 'internal';
  process.exit(kind === 'busy' || kind === 'unavailable' ? 4 : 1);
});
