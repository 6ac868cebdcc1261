// A job's history as codes: the changes the database's trigger records, with the words the
// engine stores, are read back as notes with their figures (an error's kind and status from the
// attempt that ended with the same words), so the window can say them in its language.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../../src/main/engine/db/connection';
import type { JobStore } from '../../../src/main/engine/queue/job-store';
import type { JobRow, LeasedJob } from '../../../src/main/engine/queue/job-row';
import { historyNotes, jobNote } from '../../../src/main/engine/read-models/job-notes';
import { paceTiming } from '../../../src/main/engine/messaging/send-hold';
import { OPTED_OUT_PREFIX } from '../../../src/main/engine/queue/stored-notes';
import { beforeSend } from '../../../src/main/engine/queue/before-send';
import { verifySource } from '../../../src/main/engine/queue/verify-source';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import { forgottenRecipient } from '../../../src/main/engine/messaging/forgotten-recipient';
import { refusedJob } from '../../../src/main/engine/pipeline/derive-job';
import { engineError } from '../../../src/shared/errors';
import { JobNote } from '../../../src/shared/job-notes';
import type { FakeClock } from '../../helpers/fake-clock';
import { queueFixture, type QueueFixture } from '../../helpers/queue-fixture';

describe("a job's history as codes", () => {
  let q: QueueFixture;
  let db: Db;
  let clock: FakeClock;
  let store: JobStore;

  beforeEach(() => {
    q = queueFixture({ b1: 3 });
    ({ db, clock, store } = q);
  });
  afterEach(() => q.close());

  const job = (seq: number): JobRow => db.prepare(`SELECT * FROM jobs WHERE batch_id = 'b1' AND seq = ?`).get(seq) as JobRow;
  const claim = (seq: number): LeasedJob => {
    const j = store.claim('b1', 3, 60_000).find((x) => x.seq === seq);
    if (!j) throw new Error(`job ${seq} was not claimed`);
    return j;
  };
  /** An attempt that ends in this error, then the change the runner writes for it. */
  const answered = (j: LeasedJob, kind: 'transient' | 'invalid_request', status: number, message: string): void => {
    const a = store.startAttempt(j.id, 'main');
    store.finishAttempt(a, { httpStatus: status, latencyMs: 10, outcome: kind, message, replayed: false });
    const err = engineError(kind, message, { httpStatus: status });
    if (kind === 'transient') store.retryLater(j, clock.now(), err, false);
    // A failure is stored after the item's source (queue/error-action.ts), its attempt without it.
    else store.fail(j, { ...err, message: `${j.source}: ${message}` });
  };
  const notes = (seq: number): (JobNote | null)[] => {
    const j = job(seq);
    const events = db.prepare(`SELECT from_state, to_state, reason FROM job_events WHERE job_id = ? ORDER BY id`).all(j.id) as {
      from_state: string | null;
      to_state: string;
      reason: string | null;
    }[];
    const attempts = db.prepare(`SELECT outcome, http_status, error_message FROM attempts WHERE job_id = ? ORDER BY id`).all(j.id) as {
      outcome: string;
      http_status: number | null;
      error_message: string | null;
    }[];
    const out = historyNotes(events, attempts, j);
    for (const n of out) if (n !== null) expect(JobNote.parse(n)).toEqual(n);
    return out;
  };

  it('says a retry, a failure, the Retry and an interruption by their codes, each error with its own kind and status', () => {
    answered(claim(1), 'transient', 503, 'HTTP 503: the service is busy');
    clock.advance(1_000);
    answered(claim(1), 'invalid_request', 422, 'HTTP 422: to: expected a phone number');
    store.retryFailed('b1');
    claim(1);
    store.recoverOrphans();
    expect(notes(1)).toEqual([
      null, // queued -> running
      { code: 'error', kind: 'transient', status: 503 },
      null, // retry_wait -> running (the words it carries are the change's before)
      { code: 'error', kind: 'invalid_request', status: 422 },
      { code: 'retried' },
      null,
      { code: 'interrupted' },
    ]);
    expect(jobNote(job(1))).toEqual({ code: 'interrupted' });
  });

  it("says a hold with its time, zone and cause, a put-back, an opt-out and the user's cancel", () => {
    const until = clock.now() + 60_000 * 60;
    const held = paceTiming({ ok: false, until, lastAt: until - 60_000 * 60 }, '+4930123456', 60_000 * 60);
    if (held.kind !== 'hold') throw new Error('expected a hold');
    const all = store.claim('b1', 3, 60_000);
    const [j2, j3] = [all[1], all[2]];
    if (!j2 || !j3) throw new Error('expected three claimed jobs');
    store.hold(j2, held.until, held.message);
    expect(jobNote(job(2))).toMatchObject({ code: 'held', cause: 'recipient_gap', until: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/) });
    store.requeue(j3, null);
    store.skip(claim(3), `${OPTED_OUT_PREFIX}+4930123456 is on the opt-out list.`);
    store.cancelOpen('b1');
    expect(notes(2)).toEqual([null, expect.objectContaining({ code: 'held', cause: 'recipient_gap' }), { code: 'cancelled_by_user' }]);
    expect(notes(3)).toEqual([null, { code: 'put_back' }, null, { code: 'opted_out', forgotten: false }]);
    expect(jobNote(job(3))).toEqual({ code: 'opted_out', forgotten: false });
  });

  it('says an opt-out of someone who asked to be forgotten as such, from the words the check before sending wrote', async () => {
    const hashed = { recipient: forgottenRecipient('+4930123456', Buffer.alloc(32, 7)), addedAt: Date.UTC(2026, 10, 3), source: 'forgotten' };
    const j = claim(1);
    const message = { payload_json: JSON.stringify({ to: '+4930123456', text: 'Hi', subject: null, row: 2, fields: {} }), source: j.source, attempts: 0 };
    const pre = await beforeSend(message, capabilityFor('channel'), { optedOut: () => hashed, timing: () => ({ kind: 'send' }) });
    if (pre.kind !== 'skip') throw new Error(`expected a skip, got ${pre.kind}`);
    store.skip(j, pre.reason);
    expect(jobNote(job(1))).toEqual({ code: 'opted_out', forgotten: true });
    expect(notes(1)).toEqual([null, { code: 'opted_out', forgotten: true }]);
  });

  it('says an error whose attempt is not kept by the kind of the job when it is its last change, and words it does not know as words', () => {
    const j = claim(1);
    store.fail(j, engineError('invalid_input', 'row 2: the source file changed since the batch was created'));
    expect(notes(1)).toEqual([null, { code: 'error', kind: 'invalid_input', status: null }]);
    const events = [{ from_state: 'running', to_state: 'queued', reason: 'something an older version said' }];
    expect(historyNotes(events, [], job(1))).toEqual([{ code: 'words' }]);
  });

  it('says a file changed before it was sent by where its item came from, not as an invalid input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batchdesk-changed-'));
    const path = join(dir, 'a.pdf');
    writeFileSync(path, 'now');
    const ref = { path, size: 6, mtimeMs: 1, sha256: '0'.repeat(64) };
    // One claim leases every queued job of the batch.
    const leased = store.claim('b1', 3, 60_000);
    for (const [seq, origin] of [
      [1, 'watch'],
      [2, 'batch'],
    ] as const) {
      const err = await verifySource(ref, origin);
      const j = leased.find((x) => x.seq === seq);
      if (!err || !j) throw new Error('no error for a changed file, or no job');
      store.fail(j, err);
      expect(jobNote(job(seq))).toEqual({ code: 'source_changed', origin });
      expect(notes(seq).at(-1)).toEqual({ code: 'source_changed', origin });
    }
    rmSync(dir, { recursive: true });
  });

  it("says a pipeline step's refused item by why it was refused", () => {
    const parent = { id: 7, seq: 1, source: 'call-001.wav', result_json: null, payload_json: '{}' };
    const nothing = refusedJob(
      parent,
      { id: 'b0', capability: 'transcribe' },
      'call-001.wav: the transcription result offers nothing to take (empty); not sent.',
    );
    const base = { state: 'failed', error_kind: 'invalid_input', http_status: null, parent_job_id: 7, request_body: nothing.requestBody } as const;
    expect(jobNote({ ...base, error_message: nothing.failure })).toEqual({ code: 'step_refused', why: 'nothing_to_take' });
    expect(jobNote({ ...base, error_message: 'call-001.wav: the follow-up item could not be prepared (boom); not sent. Report this as a bug.' })).toEqual({
      code: 'step_refused',
      why: 'not_prepared',
    });
    // A sent item of a step that failed is an error like any other.
    expect(jobNote({ ...base, request_body: '{}', error_message: 'HTTP 422' })).toEqual({ code: 'error', kind: 'invalid_input', status: null });
  });
});
