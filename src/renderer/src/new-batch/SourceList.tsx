// The files, folders and CSVs chosen so far, each with a remove button.
import type { Source } from './draft-store';
import './SourceList.css';

export function SourceList({ sources, onRemove }: { sources: Source[]; onRemove(path: string): void }) {
  if (sources.length === 0) return <p className="muted">No sources chosen yet.</p>;
  return (
    <ul className="source-list" aria-label="Chosen sources">
      {sources.map((s) => (
        <li key={s.path} className="source-list__item">
          <span className="source-list__name" title={s.path}>
            {s.label}
          </span>
          {s.files !== null && s.files > 1 ? <span className="muted">{s.files} files</span> : null}
          <button type="button" className="link-like" onClick={() => onRemove(s.path)} aria-label={`Remove ${s.label}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
