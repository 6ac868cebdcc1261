// Channel (messaging) batches from a CSV: exactly-once delivery, permanent refusals and retry of
// failed items under their original key. What reaches the log files is a dispatch case, run on
// both stores (test/conformance/dispatch-cases.ts).
import { describe, expect, it } from 'vitest';
import { attemptsOf, attemptsOfJob, eventsOfJob, expectLedgerExactlyOnce, jobsOf, startHarness, writeMessagesCsv } from './harness';

describe('channel batches', () => {
  it('delivers every row of a 40-row CSV exactly once', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 40);
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    expect(created.problems).toEqual([]);
    const id = created.batch?.id ?? '';
    expect(created.batch).toMatchObject({ total: 40, channel: 'whatsapp', cost: { estimated: 40 * 50 } });

    await h.run();

    const jobs = jobsOf(h.engine, id);
    expect(jobs).toHaveLength(40);
    // Jobs follow the CSV rows, in order, with the stored body being exactly {to, text}.
    jobs.forEach((j, i) => {
      const row = csv.rows[i];
      expect(j.state).toBe('succeeded');
      expect(j.source).toBe(`messages.csv row ${i + 2}`);
      expect(JSON.parse(j.request_body ?? 'null')).toEqual({ to: row?.to, text: row?.text });
      expect(j.attempts).toBe(1);
      expect(j.units).toBe(1);
      expect(j.cost).toBe(h.engine.rates.rate('channel.messaging', 'standard'));
      const result = JSON.parse(j.result_json ?? '{}') as { message_id: string | null; status: string | null };
      expect(result.status).toBe('accepted');
      expect(result.message_id).toMatch(/^msg_/);
    });
    expect(new Set(jobs.map((j) => j.idempotency_key)).size).toBe(40);

    const ledger = await expectLedgerExactlyOnce(h.admin, jobs);
    expect(new Set(ledger.map((d) => d.channel))).toEqual(new Set(['whatsapp']));
    // The message id the engine stored is the ledger's delivery id.
    const ledgerIds = new Map(ledger.map((d) => [d.idempotency_key, d.id]));
    for (const j of jobs) expect((JSON.parse(j.result_json ?? '{}') as { message_id: string }).message_id).toBe(ledgerIds.get(j.idempotency_key));

    const usage = await h.admin.usage();
    expect(usage.rows).toEqual([expect.objectContaining({ rate_item: 'channel.messaging', requests: 40, units: 40, cost: 40 * 50 })]);
    expect(await h.engine.control.summary(id)).toMatchObject({ status: 'done', counts: { succeeded: 40 }, cost: { spent: 40 * 50 } });
    const attempts = attemptsOf(h.engine, id);
    expect(attempts).toHaveLength(40);
    expect(attempts.every((a) => a.http_status === 200 && a.outcome === 'succeeded' && a.replayed === 0)).toBe(true);
  });

  it('fails a row the API refuses (422) after exactly one attempt; retryFailed keeps its idempotency key', async () => {
    const h = await startHarness();
    const csv = await writeMessagesCsv(h.dir, 8);
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv.path] });
    const id = created.batch?.id ?? '';
    const victim = jobsOf(h.engine, id)[3];
    if (!victim) throw new Error('no job 4');
    h.engine.db.prepare(`UPDATE jobs SET request_body = ? WHERE id = ?`).run('{"to":"12","text":"x"}', victim.id);

    await h.run();

    let jobs = jobsOf(h.engine, id);
    let bad = jobs.find((j) => j.id === victim.id);
    expect(bad).toMatchObject({ state: 'failed', http_status: 422, error_kind: 'invalid_request', attempts: 1, tries: 1, cost: null });
    expect(bad?.error_message).toContain(victim.source);
    expect(bad?.error_message).toMatch(/422/);
    expect(attemptsOfJob(h.engine, victim.id)).toEqual([expect.objectContaining({ http_status: 422, outcome: 'invalid_request' })]);
    expect(eventsOfJob(h.engine, victim.id).map((e) => e.to_state)).toEqual(['running', 'failed']);
    const good = jobs.filter((j) => j.id !== victim.id);
    expect(good.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
    await expectLedgerExactlyOnce(h.admin, good);
    expect(await h.engine.control.summary(id)).toMatchObject({ status: 'done_with_failures', counts: { succeeded: 7, failed: 1 } });
    // A refused request is not billed.
    expect((await h.admin.usage()).rows).toEqual([expect.objectContaining({ requests: 7, cost: 7 * 50 })]);

    expect(await h.engine.control.retry(id)).toBe(1);
    const requeued = h.engine.jobs.get(victim.id);
    expect(requeued).toMatchObject({ state: 'queued', tries: 0, attempts: 1, idempotency_key: victim.idempotency_key, error_kind: null });
    expect(requeued?.request_body).toBe('{"to":"12","text":"x"}');

    await h.run();

    // Same key, same body: the API answers the same refusal again; nothing is delivered.
    jobs = jobsOf(h.engine, id);
    bad = jobs.find((j) => j.id === victim.id);
    expect(bad).toMatchObject({ state: 'failed', http_status: 422, idempotency_key: victim.idempotency_key, attempts: 2, tries: 1 });
    expect(attemptsOfJob(h.engine, victim.id).map((a) => a.http_status)).toEqual([422, 422]);
    await expectLedgerExactlyOnce(h.admin, good);
    expect(jobs.filter((j) => j.id !== victim.id).every((j) => j.attempts === 1)).toBe(true);
  });
});
