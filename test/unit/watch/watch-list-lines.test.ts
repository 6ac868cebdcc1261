// `watch list` and `run --watch` say what happened to each file: every file with a warning on a
// line of its own, counted by what happened (a change after sending is not "set aside"), and a
// file that keeps changing said once per run, not once per version.
import { describe, expect, it } from 'vitest';
import { describeWatch, problemSummary } from '../../../src/main/cli/commands/watch';
import { ChangedFiles } from '../../../src/main/cli/commands/run-watch';
import type { WatchView } from '../../../src/shared/contract';
import type { WatchEvent } from '../../../src/main/engine/watch/hot-folders';

type File = WatchView['problems'][number];

const changed = (name: string, versions: number): File => ({
  path: `/scans/${name}`,
  message: `/scans/${name} changed after it was sent (taken 2026-11-29 08:00 into batch b1): ...`,
  note: { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b1', versions },
  at: '2026-11-29T09:00:00.000Z',
  batch: null,
  seq: null,
});

const aside: File = {
  path: '/scans/bad.pdf',
  message: '/scans/bad.pdf: the file is empty. Set aside as /scans/.batchdesk-set-aside/bad.pdf; put a corrected copy of bad.pdf into the folder to try again.',
  note: { code: 'set_aside', cause: { code: 'file_empty' }, words: 'x', target: '.batchdesk-set-aside/bad.pdf', error: null },
  at: '2026-11-29T09:00:00.000Z',
  batch: null,
  seq: null,
};

function view(problems: File[]): WatchView {
  return {
    id: 'w1',
    dir: '/scans',
    capability: 'ocr',
    tier: 'standard',
    extensions: null,
    steps: 'ocr',
    then: [],
    key: null,
    budgetPerDay: null,
    redact: null,
    redactStored: false,
    keepFilesDays: null,
    keepResultsDays: null,
    deleteOriginals: false,
    takenToday: 2,
    lastFile: { path: '/scans/a.pdf', message: null, note: null, at: '2026-11-29T09:30:00.000Z', batch: 'b1', seq: 2 },
    todayBatch: 'b1',
    problems,
    skipped: [],
    waiting: [],
  };
}

describe('watch list lines', () => {
  it('lists every file with a warning and counts them by what happened', () => {
    const problems = [1, 2, 3, 4, 5, 6].map((n) => changed(`f${n}.pdf`, n));
    const text = describeWatch(view(problems), (t) => t, 'none');
    for (const p of problems) expect(text).toContain(`! ${p.message}`);
    expect(text).not.toMatch(/set aside|and \d+ more/);
    expect(text).toContain('problems: 6 changed after they were sent');
    expect(problemSummary([aside, changed('a.pdf', 1)])).toBe('1 set aside (in .batchdesk-set-aside), 1 changed after it was sent');
  });

  it("names the last file's batch and item", () => {
    expect(describeWatch(view([]), (t) => t, 'none')).toMatch(/last \/scans\/a\.pdf \(sent: batch b1, item 2\) at 2026-11-29 09:30:00 UTC/);
  });
});

describe('run --watch', () => {
  const w = { id: 'w1', dir: '/scans' };
  const refused = (versions: number): WatchEvent => ({
    kind: 'refused',
    path: '/scans/a.pdf',
    message: 'changed',
    note: { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b1', versions },
    watch: w,
  });

  it('says a file that keeps changing once, and again after it was taken again', () => {
    const c = new ChangedFiles();
    expect([1, 2, 3].map((n) => c.say(refused(n)))).toEqual([true, false, false]);
    // Resent (by `watch resend`, in another process): its next change is the first again.
    expect(c.say(refused(1))).toBe(true);
    expect(c.say({ kind: 'taken', path: '/scans/a.pdf', batchId: 'b1', seq: 3, created: [], watch: w })).toBe(true);
    expect(c.say(refused(2))).toBe(true);
  });
});
