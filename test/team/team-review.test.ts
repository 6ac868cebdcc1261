// batchdesk review on a team's store: the Needs review queue of a team's OCR batch, listed from a
// desk that did not send it, a correction re-checked, Accept recorded with this desk's OS user,
// status --store counting the outcome, and the team's export carrying the correction.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { runCli } from '../helpers/cli';
import { keyEnv, query, startWorker, useTeamRig } from '../helpers/team-run';

const INVOICES = fileURLToPath(new URL('../../resources/samples/invoices/', import.meta.url));
const MARLOWE = 'invoice-marlowe-INV-2026-0088.png';

describe('team: invoice review', () => {
  const rig = useTeamRig('batchdesk-team-review-', { seed: 21 });

  it('lists, corrects, accepts in the shared store, and status and export --store say so', async () => {
    const { cluster, sb, dir, live } = rig();
    const storeUrl = await cluster.freshDatabase('review');
    const created = await runCli(
      ['batch', 'create', 'ocr', INVOICES, '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url, '--json'],
      keyEnv(sb),
    );
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } }).batch.id;
    const worker = startWorker({ storeUrl, dataDir: join(dir.path, 'w1'), sb });
    live.push(worker);
    expect((await worker.done).code).toBe(0);

    // The accountant's desk: another data folder, the store by its flag.
    const d = ['--data-dir', join(dir.path, 'accountant'), '--store', storeUrl];
    const listed = await runCli(['review', '--list', id, ...d]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`1 invoice(s) of batch ${id} need review:`);
    expect(listed.stdout).toMatch(/✗ Net \+ VAT = gross: .*10\.00 more/);
    expect(listed.stdout).toContain(`--set FIELD=VALUE --accept --store ${storeUrl}`);
    const job = /job (\d+)\s+item \d+\s+\S*invoice-marlowe/.exec(listed.stdout)?.[1] ?? '';
    const [stored] = await query<{ id: string }>(storeUrl, `SELECT id::text FROM jobs WHERE batch_id = $1 AND source LIKE $2`, [id, `%${MARLOWE}`]);
    // The store's own job id: the one the window's job dialog shows on the store.
    expect(job).toBe(stored?.id);

    const bad = await runCli(['review', job, '--set', 'dueDate=2026-13-01', ...d]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nothing was saved');
    const fixed = await runCli(['review', job, '--set', 'gross=769,20', ...d]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('Needs review: not decided yet');
    expect(fixed.stdout).toMatch(/ gross\s+769\.20\s+\(read: 779\.20\)/);
    expect(fixed.stdout).toMatch(/✓ Net \+ VAT = gross: 641\.00 \+ 128\.20 VAT = 769\.20/);

    // BATCHDESK_STORE does as --store does.
    const accepted = await runCli(['review', job, '--accept', '--note', 'total misprinted', '--json', '--data-dir', join(dir.path, 'accountant')], {
      BATCHDESK_STORE: storeUrl,
    });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ decision: 'accepted', decidedBy: userInfo().username, note: 'total misprinted', needsReview: false });

    expect((await runCli(['review', '--list', id, ...d])).stdout).toContain(
      `No invoice of batch ${id} needs review (4 invoice(s): 3 passed, 1 accepted, 0 rejected)`,
    );
    const status = await runCli(['status', id, ...d]);
    expect(status.stdout).toContain('4 invoices: 3 passed, 1 accepted after review');
    expect(status.stdout).not.toContain('need review');
    const json = await runCli(['status', id, '--json', ...d]);
    expect((JSON.parse(json.stdout) as { batches: { counts: { needs_review: number } }[] }).batches[0]?.counts.needs_review).toBe(0);

    const out = join(dir.path, 'invoices.csv');
    const exported = await runCli(['export', id, '--format', 'invoices', '--out', out, ...d]);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.find((r) => r.source?.endsWith(MARLOWE))).toMatchObject({
      gross: '769.20',
      needs_review: 'no',
      review_decision: 'accepted',
      reviewed_by: userInfo().username,
      corrected_fields: 'gross',
    });

    const none = await runCli(['review', '999999', ...d]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Job 999999 has no invoice to review');
    expect(none.stderr).toContain(`\`batchdesk review --list <batch-id> --store ${storeUrl}`);
  }, 120_000);
});
