// The window's summary of a folder's problems counts each file by what happened to it: a file
// changed after it was sent, or one that could not be moved, is not counted as set aside.
import { describe, expect, it } from 'vitest';
import { problemTally } from '../../../src/renderer/src/watch/problem-tally';
import type { WatchNote } from '../../../src/shared/watch-notes';

const aside: WatchNote = { code: 'set_aside', cause: { code: 'file_empty' }, words: 'x', target: '.batchdesk-set-aside/x.pdf', error: null };
const inPlace: WatchNote = { code: 'set_aside', cause: { code: 'file_empty' }, words: 'x', target: null, error: 'EACCES' };
const changed: WatchNote = { code: 'changed_after_sent', at: '2026-11-29T08:00:00.000Z', batch: 'b1', versions: 2 };

describe('problem tally', () => {
  it('counts set aside, left in place, changed and others apart', () => {
    expect(problemTally([{ note: changed }, { note: changed }, { note: inPlace }, { note: null }, { note: { code: 'words' } }])).toEqual({
      setAside: 0,
      leftInPlace: 1,
      changed: 2,
      other: 2,
    });
    expect(problemTally([{ note: aside }])).toEqual({ setAside: 1, leftInPlace: 0, changed: 0, other: 0 });
  });
});
