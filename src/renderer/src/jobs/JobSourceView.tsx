// The job's source: the invoice image or PDF, an audio player, the message as it is sent, or
// the CSV row / TXT line an item came from.
import { useCallback, useState } from 'react';
import { hrefFor } from '../routing/route';
import type { JobDetail } from '../../../shared/contract';
import { client, errorMessage } from '../client';
import { baseName } from '../format/labels';
import { usePlayback } from './playback-store';

/** Desktop: the source file in the system's file manager (a browser page cannot open local folders). */
function ShowInFolder({ jobId }: { jobId: number }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="link-like"
        onClick={() =>
          void client()
            .call('jobs.showSource', { id: jobId })
            .catch((e: unknown) => setError(errorMessage(e)))
        }
      >
        Show in folder
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </>
  );
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The recording, registered as the dialog's player so transcript segments can play it from their time. */
function Recording({ jobId, url, name }: { jobId: number; url: string; name: string }) {
  const attach = usePlayback((s) => s.attach);
  const ref = useCallback((el: HTMLAudioElement | null) => attach(jobId, el), [attach, jobId]);
  return (
    <audio ref={ref} controls preload="metadata" src={url} className="job-detail__audio" aria-label={`Recording ${name}`}>
      Your browser cannot play this recording.
    </audio>
  );
}

export function JobSourceView({ job }: { job: JobDetail }) {
  const v = job.sourceView;
  if (v.kind === 'message') {
    return (
      <dl className="job-detail__fields">
        <dt>To</dt>
        <dd className="mono">{v.to}</dd>
        {v.subject !== null ? (
          <>
            <dt>Subject</dt>
            <dd>{v.subject}</dd>
          </>
        ) : null}
        <dt>Text</dt>
        <dd className="job-detail__message">{v.text}</dd>
        <dt>CSV row</dt>
        <dd>{v.row}</dd>
      </dl>
    );
  }
  if (v.kind === 'row') {
    const extra = Object.entries(v.fields).filter(([k]) => k !== 'name');
    return (
      <dl className="job-detail__fields">
        {v.name !== null ? (
          <>
            <dt>Name</dt>
            <dd>{v.name}</dd>
          </>
        ) : null}
        {v.input !== '' ? (
          <>
            <dt>Input</dt>
            <dd className="job-detail__message">{v.input}</dd>
          </>
        ) : null}
        {extra.map(([k, value]) => (
          <div key={k} className="job-detail__field-pair">
            <dt>{k}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {v.from !== null ? (
          <>
            <dt>From</dt>
            <dd data-testid="item-origin">
              the result of <a href={hrefFor({ name: 'batch', id: v.from.batch, jobId: v.from.job })}>{v.from.source}</a> in batch {v.from.batch} (item {v.row})
            </dd>
          </>
        ) : (
          <>
            <dt>{v.line ? 'Line' : 'CSV row'}</dt>
            <dd>{v.row}</dd>
          </>
        )}
      </dl>
    );
  }
  const name = baseName(v.path);
  const meta = (
    <p className="job-detail__file muted">
      <span className="mono">{v.path}</span> · {v.mime} · {formatBytes(v.size)}
      {v.exists && client().transport === 'electron' ? (
        <>
          {' '}
          · <ShowInFolder jobId={job.id} />
        </>
      ) : null}
    </p>
  );
  if (!v.exists) {
    return (
      <>
        <p className="job-detail__missing">The source file was moved or deleted since the batch was created; it cannot be shown.</p>
        {meta}
      </>
    );
  }
  const url = client().sourceUrl(job.id);
  let media;
  if (v.mime.startsWith('audio/')) {
    media = <Recording jobId={job.id} url={url} name={name} />;
  } else if (v.mime === 'image/png' || v.mime === 'image/jpeg') {
    media = <img src={url} alt={`Scanned invoice ${name}`} className="job-detail__image" />;
  } else if (v.mime === 'application/pdf') {
    media = <iframe title={`Invoice ${name}`} src={url} className="job-detail__pdf" />;
  } else {
    media = <p className="muted">This file type ({v.mime}) cannot be shown here.</p>;
  }
  return (
    <>
      {media}
      {meta}
    </>
  );
}
