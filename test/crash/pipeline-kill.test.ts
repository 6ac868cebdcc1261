// Exactly once across a chain: a 200-recording transcribe -> summary -> crm pipeline, the command
// line killed with SIGKILL again and again while the sandbox drops answers after doing the work.
// Afterwards the sandbox shows every CRM write once, every summary billed once, every transcript
// billed once; the engine's three steps agree item by item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { wavBytes } from '../integration/harness';

const ITEMS = 200;

describe('crash: SIGKILL during a three-step pipeline', () => {
  let sb: SandboxHandle;
  let admin: SandboxAdmin;
  const dir = tempDir('batchdesk-pipeline-crash-');

  beforeAll(async () => {
    assertBuilt();
    sb = await startSandbox({ seed: 11 });
    admin = new SandboxAdmin(sb.url, sb.adminToken);
  });
  afterAll(async () => {
    await sb.close();
    dir.cleanup();
  });

  it(`transcribes, summarises and logs ${ITEMS} calls exactly once across repeated SIGKILLs`, async () => {
    const calls = join(dir.path, 'calls');
    mkdirSync(calls);
    for (let i = 0; i < ITEMS; i++) writeFileSync(join(calls, `call-${String(i).padStart(3, '0')}.wav`), wavBytes(1 + (i % 3), `call ${i}`, i));
    const dataDir = join(dir.path, 'data');
    const env = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
    const common = ['--data-dir', dataDir, '--api-url', sb.url];

    const created = await runCli(['batch', 'create', 'transcribe', calls, '--then', 'text:summary', '--then', 'crm:conversation', '--json', ...common], env);
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout) as { batch: { id: string }; steps: { id: string }[]; estimates: { label: string; items: number }[] };
    const ids = [out.batch.id, ...out.steps.map((s) => s.id)];
    expect(ids).toHaveLength(3);
    expect(out.estimates.map((e) => [e.label, e.items])).toEqual([
      ['transcribe', ITEMS],
      ['text (summary)', ITEMS],
      ['crm (conversation)', ITEMS],
    ]);

    await admin.setFaults({ latency_ms: 25, drop_after_work_rate: 0.15, error_rate: 0.05 });
    let kills = 0;
    for (let round = 0; round < 14; round++) {
      const { child, done } = startCli(['run', ...common], env);
      const waited = await Promise.race([done.then(() => 'exited' as const), new Promise<'timer'>((r) => setTimeout(() => r('timer'), 500 + round * 250))]);
      if (waited === 'exited') break;
      child.kill('SIGKILL');
      expect((await done).signal).toBe('SIGKILL');
      kills++;
    }
    expect(kills).toBeGreaterThanOrEqual(4);

    await admin.clearFaults();
    const final = await runCli(['run', ...common], env);
    expect(final.code, final.stderr).toBe(0);
    const status = await runCli(['status', ids[0] ?? '', ...common], env);
    expect(status.stdout).toMatch(
      new RegExp(`Pipeline ${ids[0]}: transcribe ${ITEMS}/${ITEMS} → text \\(summary\\) ${ITEMS}/${ITEMS} → crm \\(conversation\\) ${ITEMS}/${ITEMS}`),
    );

    // The sandbox: every transcript, summary and CRM write billed once; one record per call.
    const usage = (await admin.usage()).rows;
    for (const item of ['transcribe', 'text', 'crm']) expect(usage.find((u) => u.rate_item === item)?.requests, item).toBe(ITEMS);
    const res = await fetch(`${sb.url}/v1/crm/conversations?limit=500`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    const records = ((await res.json()) as { data: { id: string; source: string }[] }).data;
    expect(records).toHaveLength(ITEMS);
    expect(new Set(records.map((r) => r.source)).size).toBe(ITEMS);

    // The engine agrees: each step has every item once, linked to the item before it.
    const db = new Database(join(dataDir, 'batchdesk.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const id of ids) {
        const counts = db.prepare(`SELECT state, COUNT(*) AS n FROM jobs WHERE batch_id = ? GROUP BY state`).all(id);
        expect(counts, id).toEqual([{ state: 'succeeded', n: ITEMS }]);
      }
      const unlinked = db
        .prepare(
          `SELECT COUNT(*) AS n FROM jobs c JOIN jobs p ON p.id = c.parent_job_id WHERE c.batch_id IN (?, ?) AND (p.seq <> c.seq OR p.state <> 'succeeded')`,
        )
        .get(ids[1], ids[2]) as { n: number };
      expect(unlinked.n).toBe(0);
      const recordIds = db.prepare(`SELECT json_extract(result_json, '$.record_id') AS r FROM jobs WHERE batch_id = ?`).all(ids[2]) as { r: string }[];
      expect(new Set(recordIds.map((r) => r.r))).toEqual(new Set(records.map((r) => r.id)));
      // The kills hit the later steps too, not only the transcriptions.
      const interrupted = db
        .prepare(`SELECT COUNT(*) AS n FROM attempts a JOIN jobs j ON j.id = a.job_id WHERE a.outcome = 'interrupted' AND j.batch_id IN (?, ?)`)
        .get(ids[1], ids[2]) as { n: number };
      expect(interrupted.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 300_000);
});
