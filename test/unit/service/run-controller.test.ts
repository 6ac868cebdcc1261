// The window's run loop must not lose a Start that arrives while a pass is finding the data
// folder busy: the batch is then shown as waiting for the other process, not silently idle.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/main/engine/engine';
import { EngineLock } from '../../../src/main/engine/engine-lock';
import { ConnectionManager } from '../../../src/main/service/connection-manager';
import { RunController, type RunnerStatus } from '../../../src/main/service/run-controller';
import type { SecretStore } from '../../../src/main/engine/secrets/secret-store';
import { startSandbox, type SandboxHandle } from '../../../src/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';

const noKeychain: SecretStore = { set: () => Promise.reject(new Error('none')), get: () => Promise.resolve(null), delete: () => Promise.resolve(false) };

/** A connection that is slow to come: the test decides when it arrives. */
class SlowConnections extends ConnectionManager {
  release: () => void = () => undefined;
  private readonly gate = new Promise<void>((r) => (this.release = r));
  override async get(): ReturnType<ConnectionManager['get']> {
    await this.gate;
    return super.get();
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the run loop', () => {
  it('a Start pressed while a pass gives up on a busy folder is not lost: the window says it waits', async () => {
    const dir = tempDir('batchdesk-rc-');
    const sb: SandboxHandle = await startSandbox();
    cleanups.push(() => sb.close());
    const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain });
    cleanups.push(() => engine.close());
    const lock = EngineLock.acquire(engine.dataDir); // another process sending from this folder
    cleanups.push(() => lock.release());
    const conns = new SlowConnections(engine, { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey }, sb.url);
    cleanups.push(() => conns.close());
    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460001,Hello\n');
    const id = (await engine.createBatch({ capability: 'channel', paths: [csv] })).batch?.id ?? '';
    let rc: RunController | null = null;
    // Start is pressed just as a pass, finding the folder busy and nothing started, gives up.
    let pressed = false;
    const onStatus = (s: RunnerStatus): void => {
      if (s.state !== 'idle' || pressed) return;
      pressed = true;
      void engine.control.start([id]).then(() => rc?.kick());
    };
    rc = new RunController(engine, conns, () => undefined, onStatus, 60_000);
    const controller = rc;
    cleanups.push(() => controller.stop());
    rc.kick();
    conns.release();
    for (let i = 0; i < 100 && rc.status.state !== 'blocked'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pressed).toBe(true);
    expect(rc.status.state).toBe('blocked');
  });

  it('a batch another process schedules while the loop is idle is sent at its time', async () => {
    const dir = tempDir('batchdesk-rc-');
    const sb: SandboxHandle = await startSandbox();
    cleanups.push(() => sb.close());
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
    const engine = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain, env });
    cleanups.push(() => engine.close());
    const conns = new ConnectionManager(engine, env, sb.url);
    cleanups.push(() => conns.close());
    const rc = new RunController(
      engine,
      conns,
      () => undefined,
      () => undefined,
      60_000,
      100,
    );
    cleanups.push(() => rc.stop());
    rc.kick(); // the window opens: nothing to send
    for (let i = 0; i < 100 && rc.status.state !== 'idle'; i++) await new Promise((r) => setTimeout(r, 20));
    // A terminal on the same data folder: `batch create ... --at` half a second from now.
    const other = Engine.open({ dataDir: join(dir.path, 'data'), secrets: noKeychain });
    const csv = join(dir.path, 'later.csv');
    writeFileSync(csv, 'to,text\n+442079460002,Later\n');
    const id = (await other.createBatch({ capability: 'channel', paths: [csv], at: Date.now() + 500 })).batch?.id ?? '';
    other.close();
    expect((await engine.control.summary(id)).started).toBe(false);
    for (let i = 0; i < 250 && (await engine.control.summary(id)).counts.succeeded === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await engine.control.summary(id)).counts.succeeded).toBe(1);
  });
});
