// The browser host as it was before the engine had a process of its own: the same server with the
// engine in its thread (InProcessEngine), for the responsiveness bench's comparison only. Run from
// the source: `node --import tsx scripts/bench/host-in-process.ts DATA_DIR API_URL`; prints the same
// "Open this URL" line as `npm run web`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../../src/main/service/app-service';
import { InProcessEngine } from '../../src/main/service/in-process-engine';
import { startHost } from '../../src/main/host/host-server';
import { KeychainStore } from '../../src/main/engine/secrets/secret-store';

const [dataDir = '', apiUrl = ''] = process.argv.slice(2);
const service = new AppService({ dataDir, secrets: new KeychainStore(), transport: 'browser', apiUrl });
const engine = new InProcessEngine(service);
const host = await startHost({ engine, rendererDir: join(fileURLToPath(new URL('../..', import.meta.url)), 'out', 'renderer'), port: 0 });
process.stdout.write(`Batchdesk is running. Open this URL in your browser:\n\n  ${host.openUrl}\n\n`);
engine.start();
process.on(
  'SIGTERM',
  () =>
    void host
      .close()
      .then(() => engine.close())
      .then(() => process.exit(0)),
);
