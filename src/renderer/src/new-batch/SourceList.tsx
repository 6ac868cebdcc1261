// The files, folders and CSVs chosen so far, each with a remove button.
import { useTranslation } from 'react-i18next';
import type { Source } from './draft-store';
import { formatCount } from '../format/time';
import './SourceList.css';

export function SourceList({ sources, onRemove }: { sources: Source[]; onRemove(path: string): void }) {
  const { t } = useTranslation(['newBatch', 'common']);
  if (sources.length === 0) return <p className="muted">{t('sources.none')}</p>;
  return (
    <ul className="source-list" aria-label={t('sources.chosen')}>
      {sources.map((s) => (
        <li key={s.path} className="source-list__item">
          <span className="source-list__name" title={s.path}>
            {s.label}
          </span>
          {s.files !== null && s.files > 1 ? <span className="muted">{t('common:files', { count: s.files, n: formatCount(s.files) })}</span> : null}
          <button type="button" className="link-like" onClick={() => onRemove(s.path)} aria-label={t('sources.remove', { name: s.label })}>
            {t('common:remove')}
          </button>
        </li>
      ))}
    </ul>
  );
}
