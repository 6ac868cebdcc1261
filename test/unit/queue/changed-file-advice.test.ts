// Issue 40, points 1 and 13: a file that changed after it was queued, or while it was being
// uploaded, gets the advice of where its item came from: `watch resend` for a watched folder's
// item (the window's Send this version too), a new batch for a batch's. One chooser for both
// checks and both stores (a team's store keeps a batch's watched folder).
import { describe, expect, it } from 'vitest';
import { newVersionAdvice, storedOrigin } from '../../../src/main/engine/queue/changed-file-advice';
import { judgeAnswer, type AnswerContext } from '../../../src/main/engine/queue/answer-verdict';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';
import type { SourceOrigin } from '../../../src/main/engine/queue/verify-source';
import type { LeasedJob } from '../../../src/main/engine/queue/job-row';
import type { BatchContext } from '../../../src/main/engine/capabilities/capability';
import type { RateBook } from '../../../src/main/engine/costs/rate-book';
import { noteOf } from '../../../src/main/engine/read-models/job-notes';

const PATH = '/srv/calls/call 0412.wav';

describe('the advice for a changed file', () => {
  it("is `watch resend PATH` for a watched folder's item and a new batch for a batch's", () => {
    expect(newVersionAdvice(PATH, 'watch')).toBe(
      "It came from a watched folder: to send the new version, `batchdesk watch resend '/srv/calls/call 0412.wav'` (in the window: Watch folders, Send this version too).",
    );
    expect(newVersionAdvice(PATH, 'batch')).toBe('Create a new batch for the new version.');
  });

  it("reads a team's batch's origin from its stored watched folder", () => {
    expect(storedOrigin({ watch_dir: '/srv/calls' })).toBe('watch');
    expect(storedOrigin({ watch_dir: null })).toBe('batch');
    expect(storedOrigin({})).toBe('batch');
  });
});

describe('an answer to an upload whose file changed while it was sent', () => {
  const cap = capabilityFor('transcribe');
  const uploaded = (origin: SourceOrigin): AnswerContext<unknown> => ({
    response: {
      status: 200,
      headers: { get: () => 'application/json' },
      body: Buffer.from('{"text":"hello"}'),
      bodyBytes: 16,
      truncated: false,
      latencyMs: 5,
      // What was uploaded is not what was checked before sending.
      uploadedSha256: 'b'.repeat(64),
    },
    job: { id: 1, batch_id: 'b1', estimated_units: 3 } as unknown as LeasedJob,
    batch: { id: 'b1', tier: 'standard' },
    cap,
    payload: {},
    ctx: {} as BatchContext,
    src: { path: PATH, size: 124, mtimeMs: 1, sha256: 'a'.repeat(64) },
    origin,
    key: { secret: 'sk', label: 'env', source: 'env', id: null, rpm: null, baseUrl: null },
    api: 'the API at http://127.0.0.1',
    secrets: ['sk'],
    rates: {} as RateBook,
    now: 0,
  });

  for (const [origin, advice] of [
    ['watch', /It came from a watched folder: to send the new version, `batchdesk watch resend '\/srv\/calls\/call 0412\.wav'`/],
    ['batch', /Create a new batch for the new version\.$/],
  ] as const) {
    it(`fails the item, never retried, with the advice of its origin (${origin})`, () => {
      const v = judgeAnswer(uploaded(origin));
      expect(v.kind).toBe('failed');
      const message = v.kind === 'failed' ? v.err.message : '';
      expect(message).toContain(`${PATH}: the file changed while it was being uploaded; the API's answer is kept but may not match the file.`);
      expect(message).toMatch(advice);
      if (origin === 'watch') expect(message).not.toMatch(/new batch/);
      // The window says it in its own language, with the advice of the same origin.
      expect(noteOf({ from: 'running', to: 'failed', reason: message, kind: 'invalid_input', status: 200 })).toEqual({ code: 'changed_uploading', origin });
    });
  }
});
