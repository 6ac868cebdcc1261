// `npm run web`: the engine and the window's UI served to the local browser, for machines
// without a desktop session or where Electron's binary cannot be installed.
import { parseArgs } from 'node:util';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../service/app-service';
import { KeychainStore } from '../engine/secrets/secret-store';
import { defaultDataDir } from '../engine/data-dir';
import { startHost } from './host-server';

const USAGE = `npm run web -- [--port N] [--data-dir DIR] [--api-url URL]

Starts Batchdesk's engine and serves its window on http://127.0.0.1:PORT (a random port by
default). Open the printed URL: it carries this launch's access token.
`;

async function main(): Promise<void> {
  let values;
  try {
    values = parseArgs({
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'api-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const service = new AppService({ dataDir, secrets: new KeychainStore(), transport: 'browser', apiUrl: values['api-url'] ?? process.env.BATCHDESK_API_URL ?? null });
  const here = dirname(fileURLToPath(import.meta.url));
  const host = await startHost({ service, rendererDir: join(here, '..', 'renderer'), port });
  const conn = await service.connections.view();
  process.stdout.write(`Batchdesk is running. Open this URL in your browser:\n\n  ${host.openUrl}\n\nData folder: ${dataDir}\nSending to: ${conn.description}\nStop with Ctrl-C (unfinished batches continue at the next start).\n`);
  service.start();
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    void host.close().then(() => service.close()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main().catch((e: unknown) => {
  process.stderr.write(`batchdesk web: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof Error && e.name === 'EngineBusyError' ? 4 : 1);
});
