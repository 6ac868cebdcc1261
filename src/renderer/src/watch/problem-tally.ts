// A watched folder's problems counted by what happened to each file, for the summary the window
// shows before the list: a file changed after it was sent is not "set aside", nor is one that
// could not be moved.
import type { WatchNote } from '../../../shared/watch-notes';

export interface ProblemTally {
  setAside: number;
  leftInPlace: number;
  changed: number;
  other: number;
}

export function problemTally(problems: readonly { note: WatchNote | null }[]): ProblemTally {
  const t: ProblemTally = { setAside: 0, leftInPlace: 0, changed: 0, other: 0 };
  for (const p of problems) {
    if (p.note?.code === 'set_aside') {
      if (p.note.target === null) t.leftInPlace++;
      else t.setAside++;
    } else if (p.note?.code === 'changed_after_sent') t.changed++;
    else t.other++;
  }
  return t;
}
