// The promise the product rests on: kill the command line with SIGKILL mid-batch, again and
// again, restart it, and every customer still gets each message exactly once, while the
// sandbox drops some responses after delivering. Runs the built CLI as a child process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

const ROWS = 600;

describe('crash: SIGKILL mid-run, restart, exactly-once delivery', () => {
  let sb: SandboxHandle;
  let admin: SandboxAdmin;
  const dir = tempDir('batchdesk-crash-');

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox({ seed: 7 });
    admin = new SandboxAdmin(sb.url, sb.adminToken);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it(`delivers ${ROWS} rows exactly once across repeated SIGKILLs`, async () => {
    const csv = join(dir.path, 'customers.csv');
    const lines = ['to,text,name'];
    for (let i = 0; i < ROWS; i++) lines.push(`+44207946${String(i).padStart(4, '0')},"Hello {{name}}, your code is ${1000 + i}.",Customer ${i}`);
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const dataDir = join(dir.path, 'data');
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
    const common = ['--data-dir', dataDir, '--api-url', sb.url];

    const created = await runCli(['batch', 'create', 'channel', csv, '--name', 'crash test', ...common], env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1];
    expect(id).toBeTruthy();

    // Slow enough to be killed mid-flight, and hostile: some responses are dropped after the
    // message was delivered, some requests fail before any work.
    await admin.setFaults({ latency_ms: 30, drop_after_work_rate: 0.1, error_rate: 0.05 });

    // The data folder's own count of items sent, read as the CLI writes it (a WAL reader).
    const progress = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
    const succeeded = (): number => (progress.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'succeeded'`).get() as { n: number }).n;
    let kills = 0;
    for (let round = 0; round < 8 && kills < 4; round++) {
      const before = (await admin.ledger()).length;
      const { child, done } = startCli(['run', ...common], env);
      let exited = false;
      void done.then(() => (exited = true));
      // Killed once this run has sent some messages (seen in the data folder, not timed: a loaded
      // machine may take seconds to start the CLI), while more are in flight.
      const target = succeeded() + 20 + round * 10;
      const deadline = Date.now() + 90_000;
      while (!exited && succeeded() < target) {
        if (Date.now() > deadline) throw new Error(`round ${round}: the CLI sent fewer than ${20 + round * 10} messages in 90 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (exited) break;
      child.kill('SIGKILL');
      const r = await done;
      expect(r.signal).toBe('SIGKILL');
      const after = (await admin.ledger()).length;
      if (after > before && after < ROWS) kills++;
    }
    progress.close();
    expect(kills).toBeGreaterThanOrEqual(3);

    await admin.clearFaults();
    const final = await runCli(['run', ...common], env);
    expect(final.code, final.stderr).toBe(0);

    // The sandbox's ledger: every row delivered, none twice.
    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(ROWS);
    expect(new Set(ledger.map((d) => d.idempotency_key)).size).toBe(ROWS);
    expect(new Set(ledger.map((d) => d.to)).size).toBe(ROWS);
    for (const d of ledger) expect(d.text).toMatch(/^Hello Customer \d+, your code is \d+\.$/);

    // The engine's own record agrees, the kills left traces in history, and the file is sound.
    const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const counts = db.prepare(`SELECT state, COUNT(*) AS n FROM jobs WHERE batch_id = ? GROUP BY state`).all(id) as { state: string; n: number }[];
      expect(counts).toEqual([{ state: 'succeeded', n: ROWS }]);
      const keys = db.prepare(`SELECT idempotency_key FROM jobs WHERE batch_id = ?`).all(id) as { idempotency_key: string }[];
      expect(new Set(keys.map((k) => k.idempotency_key))).toEqual(new Set(ledger.map((d) => d.idempotency_key)));
      const interrupted = db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE outcome = 'interrupted'`).get() as { n: number };
      expect(interrupted.n).toBeGreaterThan(0);
      const replayed = db.prepare(`SELECT COUNT(*) AS n FROM attempts WHERE replayed = 1`).get() as { n: number };
      expect(replayed.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 480_000);
});
