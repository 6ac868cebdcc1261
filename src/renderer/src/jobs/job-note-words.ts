// A job's history entry or its error's cause in the window's language, from the engine's code
// (shared/job-notes.ts). Words stored without a code are shown as stored; the caller marks them
// as English.
import type { JobNote } from '../../../shared/job-notes';
import { t } from '../i18n';
import { formatWallDateTime } from '../format/time';
import { errorKindLine } from '../components/pause-words';
import { zoneWords } from '../format/zone-words';

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

/** "2026-11-29 08:00" (a wall time in some zone) as the locale writes it: the figures are kept, not moved to this computer's zone. */
export function formatWallTime(wall: string): string {
  const m = WALL.exec(wall);
  if (!m) return wall;
  const [year, month, day, hour, minute, second] = m.slice(1).map((x) => Number(x ?? 0));
  const d = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0));
  return formatWallDateTime(d, m[6] !== undefined);
}

function heldLine(n: Extract<JobNote, { code: 'held' }>): string {
  if (n.until === null || n.zone === null) return t('jobs:heldDetail');
  const at = { time: formatWallTime(n.until), zone: zoneWords(n.zone) };
  if (n.cause === 'quiet_hours') return t('jobs:note.heldQuietHours', at);
  if (n.cause === 'recipient_gap') return t('jobs:note.heldRecipientGap', at);
  return t('jobs:note.heldUntil', at);
}

/** The note in one line; null for words without a code (shown as stored). */
export function noteLine(n: JobNote): string | null {
  switch (n.code) {
    case 'error': {
      const cause = errorKindLine(n.kind);
      return n.status === null ? cause : t('jobs:note.errorHttp', { cause, status: n.status });
    }
    case 'held':
      return heldLine(n);
    case 'opted_out':
      // Someone who asked to be forgotten is said as such, never by the list's hash of them.
      return n.forgotten ? t('jobs:note.optedOutForgotten') : t('jobs:note.optedOut');
    case 'interrupted':
      return t('jobs:note.interrupted');
    case 'lease_expired':
      return t('jobs:note.leaseExpired');
    case 'worker_stopped':
      return t('jobs:note.workerStopped');
    case 'put_back':
      return t('jobs:note.putBack');
    case 'retried':
      return t('jobs:note.retried');
    case 'cancelled_by_user':
      return t('jobs:note.cancelledByUser');
    case 'forgotten':
      return t('jobs:note.forgotten');
    case 'step_refused':
      return n.why === 'not_prepared' ? t('jobs:note.stepNotPrepared') : t('jobs:note.stepNothingToTake');
    case 'source_changed':
      return n.origin === 'watch' ? t('jobs:note.sourceChangedWatch') : t('jobs:note.sourceChangedBatch');
    case 'changed_uploading':
      return n.origin === 'watch' ? t('jobs:note.changedUploadingWatch') : t('jobs:note.changedUploadingBatch');
    case 'words':
      return null;
  }
}
