// A watched folder's files that held still but are not taken yet, each with why (not whole by its
// format, or still open for writing by a program), in the window's words. The engine drops a file
// from the list once it is taken or gone, so the next read of the list no longer shows it.
import type { WatchView } from '../../../shared/contract';
import { Icon, JOB_STATE_ICON } from '../components/icons';
import { formatCount } from '../format/time';
import { t } from '../i18n';
import { nameInFolder, watchNoteLine } from './watch-note-words';

export function WaitingFiles({ files, dir }: { files: WatchView['waiting']; dir: string }) {
  if (files.length === 0) return null;
  return (
    <div className="watch__waiting" data-testid="watch-waiting">
      <Icon icon={JOB_STATE_ICON.held} size={14} /> {t('watch:row.waiting', { count: files.length, n: formatCount(files.length) })}
      <ul className="watch__problems">
        {files.map((f) => {
          const line = f.note === null ? null : watchNoteLine(f.note, nameInFolder(f.path, dir));
          // Stored without a code (an older version's words): shown as written, in English.
          return <li key={f.path}>{line ?? <span lang="en">{f.message ?? f.path}</span>}</li>;
        })}
      </ul>
    </div>
  );
}
