// Two runs started at the same instant beside a stale lock (left by a run killed with SIGKILL)
// must never both send: exactly one takes the data folder, and no row reaches both APIs.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { noKeychain, TEST_CONFIG } from './harness-shared';
import { writeMessagesCsv } from './harness';

const RACER = fileURLToPath(new URL('./fixtures/lock-racer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRIALS = 30;
const ROWS = 8;

interface Racer {
  child: ChildProcessWithoutNullStreams;
  lines: Interface;
  next(): Promise<string>;
}

function startRacer(dataDir: string, sb: SandboxHandle): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER, dataDir, sb.url], {
    cwd: ROOT,
    env: { ...process.env, BATCHDESK_CHANNEL_KEY: sb.channelKey, BATCHDESK_API_KEY: sb.apiKey },
  });
  const lines = createInterface({ input: child.stdout });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => {
    const w = waiting.shift();
    if (w) w(l);
    else queue.push(l);
  });
  return {
    child,
    lines,
    next: () => new Promise((resolve) => (queue.length > 0 ? resolve(queue.shift() ?? '') : waiting.push(resolve))),
  };
}

/** Files a killed run left in the data folder (whatever the lock mechanism is), except the database and logs. */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((n) => !n.startsWith('batchdesk.sqlite') && statSync(join(dir, n)).isFile());
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('engine lock under a race', () => {
  it(`two runs started at the same instant beside a stale lock: no row reaches both (${TRIALS} trials)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchdesk-race-'));
    const stale = mkdtempSync(join(tmpdir(), 'batchdesk-stale-'));
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => rmSync(stale, { recursive: true, force: true }),
    );
    const sbs = [await startSandbox({ port: 0 }), await startSandbox({ port: 0 })];
    for (const sb of sbs) cleanup.push(() => sb.close());
    const admins = sbs.map((sb) => new SandboxAdmin(sb.url, sb.adminToken));
    // Requests take a while, so a late start-up recovery would find the other racer's jobs in flight.
    for (const a of admins) await a.setFaults({ latency_ms: 150 });

    // A stale lock: a run killed with SIGKILL while it held the data folder.
    const engine = Engine.open({ dataDir: dir, secrets: noKeychain, env: {}, config: TEST_CONFIG });
    const csv0 = await writeMessagesCsv(stale, ROWS, 'first.csv', 0);
    const staleId = (await engine.createBatch({ capability: 'channel', paths: [csv0.path] })).batch?.id ?? '';
    engine.close();
    // The victim's own API never answers in time, so nothing it sent was delivered: its in-flight
    // rows are recovered by whichever racer wins, and every row ends up delivered exactly once.
    const victimApi = await startSandbox({ port: 0 });
    cleanup.push(() => victimApi.close());
    await new SandboxAdmin(victimApi.url, victimApi.adminToken).setFaults({ latency_ms: 30_000 });
    const victim = startRacer(dir, victimApi);
    expect(await victim.next()).toBe('ready');
    victim.child.stdin.write(`go ${Date.now()}\n`);
    // Killed once its first job is in flight: it holds the lock then.
    const peek = Engine.open({ dataDir: dir, secrets: noKeychain, env: {}, config: TEST_CONFIG });
    const running = peek.db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'running'`);
    for (let i = 0; i < 500 && (running.get() as { n: number }).n === 0; i++) await new Promise((r) => setTimeout(r, 10));
    victim.child.kill('SIGKILL');
    await new Promise((r) => victim.child.once('exit', r));
    // Its batch keeps to the victim's API (api/destination.ts), which took its first request: it is
    // moved on purpose, as `resume --switch-api` does, so that whichever racer wins sends the rest.
    expect(peek.batches.forgetApi(staleId)).toBe(new URL(victimApi.url).toString());
    peek.close();
    const staleFiles = leftovers(dir);
    for (const f of staleFiles) copyFileSync(join(dir, f), join(stale, f));

    const racers = sbs.map((sb) => startRacer(dir, sb));
    for (const r of racers) {
      expect(await r.next()).toBe('ready');
      cleanup.push(() => void r.child.kill('SIGKILL'));
    }

    const ledgerKeys = async (a: SandboxAdmin): Promise<Set<string>> => new Set((await a.ledger()).map((d) => d.idempotency_key ?? ''));
    let bothSent = 0;
    let nobodyRan = 0;
    const errors: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      for (const f of staleFiles) copyFileSync(join(stale, f), join(dir, f));
      const e = Engine.open({ dataDir: dir, secrets: noKeychain, env: {}, config: TEST_CONFIG });
      const csv = await writeMessagesCsv(stale, ROWS, `trial-${t}.csv`, 100 + t * ROWS);
      const created = await e.createBatch({ capability: 'channel', paths: [csv.path] });
      e.close();
      expect(created.batch).not.toBeNull();

      const at = Date.now() + 150;
      for (const r of racers) r.child.stdin.write(`go ${at}\n`);
      const outcomes = await Promise.all(racers.map(async (r) => JSON.parse(await r.next()) as { ran: boolean; busy: boolean; error: string | null }));
      for (const o of outcomes) if (o.error) errors.push(o.error);
      // Never neither: a free lock goes to one of them (the other waits or is told it is busy).
      if (!outcomes.some((o) => o.ran)) nobodyRan++;

      const [a, b] = await Promise.all(admins.map(ledgerKeys));
      const overlap = [...(a ?? [])].filter((k) => b?.has(k));
      if (overlap.length > 0) bothSent++;
    }
    expect(bothSent, 'trials in which the same row reached both APIs').toBe(0);
    expect(errors).toEqual([]);
    expect(nobodyRan, 'trials in which neither racer took the free lock').toBe(0);

    // Every row of every trial was delivered exactly once over the two APIs.
    const check = Engine.open({ dataDir: dir, secrets: noKeychain, env: {}, config: TEST_CONFIG });
    const n = check.db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'succeeded'`).get() as { n: number };
    const total = check.db.prepare(`SELECT COUNT(*) AS n FROM jobs`).get() as { n: number };
    check.close();
    const ledgers = await Promise.all(admins.map((a) => a.ledger()));
    expect(n.n).toBe(total.n);
    expect(ledgers.flat().length).toBe(total.n);
  }, 180_000);
});
