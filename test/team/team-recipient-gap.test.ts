// A shared batch with a recipient gap (`--recipient-gap 2s --store URL`): two workers send it, and
// no recipient gets two messages within the gap, whichever worker sent them. The gap is kept in the
// shared store (the last send to each recipient, noted as its request leaves).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { jobStates, keyEnv, query, startWorker, useTeamRig } from '../helpers/team-run';

const RECIPIENTS = ['+442079460001', '+442079460002', '+442079460003'];
const EACH = 3;
const GAP_MS = 2_000;

describe('team: a recipient gap across workers', () => {
  const rig = useTeamRig('batchdesk-team-gap-', { seed: 11 });

  it(`keeps ${GAP_MS / 1000} s between two messages to one recipient, across two workers`, async () => {
    const { cluster, sb, admin, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('gap');
    const csv = join(dir.path, 'updates.csv');
    const lines = ['to,text'];
    for (let round = 1; round <= EACH; round++) for (const to of RECIPIENTS) lines.push(`${to},Update ${round} for you`);
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const created = await runCli(
      [
        'batch',
        'create',
        'channel',
        csv,
        '--name',
        'updates',
        '--recipient-gap',
        '2s',
        '--store',
        storeUrl,
        '--data-dir',
        join(dir.path, 'planner'),
        '--api-url',
        sb.url,
      ],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout).toContain('at least 2s between two messages to the same recipient');

    const workers = [0, 1].map((n) => startWorker({ storeUrl, dataDir: join(dir.path, `worker-${n}`), sb }));
    live.push(...workers);
    for (const w of workers) {
      const r = await w.done;
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: RECIPIENTS.length * EACH }]);

    const ledger = await admin.ledger();
    expect(ledger).toHaveLength(RECIPIENTS.length * EACH);
    for (const to of RECIPIENTS) {
      const times = ledger
        .filter((d) => d.to === to)
        .map((d) => Date.parse(d.at))
        .sort((a, b) => a - b);
      expect(times).toHaveLength(EACH);
      for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0), `messages to ${to}`).toBeGreaterThanOrEqual(GAP_MS - 200);
    }
    // Held items waited their time, named in their history, and cost no attempt of their own.
    const [held] = await query<{ n: string }>(
      storeUrl,
      `SELECT COUNT(*) AS n FROM job_events WHERE to_state = 'retry_wait' AND reason ~ '^held until \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\S+ \\(recipient gap 2s: \\+\\d+ was sent a message at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\)$'`,
    );
    expect(Number(held?.n)).toBeGreaterThan(0);
    const [attempts] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM attempts`);
    expect(Number(attempts?.n)).toBe(RECIPIENTS.length * EACH);
    const [noted] = await query<{ n: string }>(storeUrl, `SELECT COUNT(*) AS n FROM recipient_sends`);
    expect(Number(noted?.n)).toBe(RECIPIENTS.length);
  }, 90_000);
});
