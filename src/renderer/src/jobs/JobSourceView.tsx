// The job's source: the invoice image or PDF, an e-invoice's XML as text, an audio player, the message as it is sent, or
// the CSV row / TXT line an item came from.
import { useCallback, useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { hrefFor } from '../routing/route';
import type { JobDetail, ResultOf } from '../../../shared/contract';
import { OcrResult } from '../../../shared/capabilities/catalog';
import { resultOf } from '../../../shared/capabilities/descriptor';
import { client, errorMessage } from '../client';
import { baseName } from '../format/labels';
import { displaySource } from '../format/source';
import { usePlayback } from './playback-store';
import { useBatchesStore } from '../store/batches-store';
import { formatBytes } from '../results/local-numbers';

/** Desktop: the source file in the system's file manager (a browser page cannot open local folders). */
function ShowInFolder({ jobId }: { jobId: number }) {
  const { t } = useTranslation('jobs');
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
        {t('source.showInFolder')}
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </>
  );
}

/** The recording, registered as the dialog's player so transcript segments can play it from their time. */
function Recording({ jobId, url, name }: { jobId: number; url: string; name: string }) {
  const { t } = useTranslation('jobs');
  const attach = usePlayback((s) => s.attach);
  const ref = useCallback((el: HTMLAudioElement | null) => attach(jobId, el), [attach, jobId]);
  return (
    <audio ref={ref} controls preload="metadata" src={url} className="job-detail__audio" aria-label={t('source.recording', { name })}>
      {t('source.cannotPlay')}
    </audio>
  );
}

type SourceXml = NonNullable<ResultOf<'jobs.sourceXml'>>;

/** An e-invoice's XML as text (React writes it as text, never as markup), scrolled in its own box, cut past 512 KiB. */
function XmlSource({ jobId, name }: { jobId: number; name: string }) {
  const { t } = useTranslation('jobs');
  const [xml, setXml] = useState<SourceXml | null | 'loading'>('loading');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setXml('loading');
    setError(null);
    client()
      .call('jobs.sourceXml', { id: jobId })
      .then((r) => live && setXml(r))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [jobId]);
  if (error !== null) return <p role="alert">{error}</p>;
  if (xml === 'loading') return <p className="muted">{t('source.xmlLoading')}</p>;
  if (xml === null) return <p className="muted">{t('source.xmlNone')}</p>;
  return (
    <>
      {xml.cut ? <p className="muted">{t('source.xmlCut', { total: formatBytes(xml.bytes) })}</p> : null}
      <pre className="job-detail__xml mono" tabIndex={0} aria-label={t('source.xml', { name: xml.attachment ?? name })}>
        {xml.text}
      </pre>
    </>
  );
}

export function JobSourceView({ job }: { job: JobDetail }) {
  // The step before is named by its name, not its id (loaded with the pipeline's batches).
  const byId = useBatchesStore((st) => st.byId);
  const { t } = useTranslation('jobs');
  const v = job.sourceView;
  if (v.kind === 'message') {
    return (
      <dl className="job-detail__fields">
        <dt>{t('source.to')}</dt>
        <dd className="mono">{v.to}</dd>
        {v.subject !== null ? (
          <>
            <dt>{t('source.subject')}</dt>
            <dd>{v.subject}</dd>
          </>
        ) : null}
        <dt>{t('source.text')}</dt>
        <dd className="job-detail__message">{v.text}</dd>
        <dt>{t('source.csvRow')}</dt>
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
            <dt>{t('source.name')}</dt>
            <dd>{v.name}</dd>
          </>
        ) : null}
        {v.input !== '' ? (
          <>
            <dt>{t('source.input')}</dt>
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
            <dt>{t('source.from')}</dt>
            <dd data-testid="item-origin">
              <Trans
                t={t}
                i18nKey="source.fromResult"
                values={{ source: v.from.path ?? displaySource(v.from.source), batch: byId[v.from.batch]?.name ?? t('source.stepBefore'), row: v.row }}
                components={[<a key="origin" href={hrefFor({ name: 'batch', id: v.from.batch, jobId: v.from.job })} />]}
              />
            </dd>
          </>
        ) : (
          <>
            <dt>{v.line ? t('source.line') : t('source.csvRow')}</dt>
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
        {/* A team's item keeps its file on the computer that created its batch: the desk says which. */}
        <p className="job-detail__missing">{v.absent === 'elsewhere' ? t('source.elsewhere') : t('source.missing')}</p>
        {meta}
      </>
    );
  }
  const url = client().sourceUrl(job.id);
  let media;
  if (v.mime.startsWith('audio/')) {
    media = <Recording jobId={job.id} url={url} name={name} />;
  } else if (v.mime === 'image/png' || v.mime === 'image/jpeg') {
    media = <img src={url} alt={t('source.scannedInvoice', { name })} className="job-detail__image" />;
  } else if (v.mime === 'application/pdf') {
    const pdf = <iframe title={t('source.invoice', { name })} src={url} className="job-detail__pdf" />;
    // A ZUGFeRD/Factur-X PDF: its pages as a PDF, the XML it carries (what was read) a click away.
    const attachment = resultOf(OcrResult, job.result)?.e_invoice?.attachment ?? null;
    media =
      attachment === null ? (
        pdf
      ) : (
        <>
          {pdf}
          <details className="job-detail__embedded">
            <summary>{t('source.embeddedXml', { attachment })}</summary>
            <XmlSource jobId={job.id} name={attachment} />
          </details>
        </>
      );
  } else if (v.mime === 'application/xml' || v.mime === 'text/xml') {
    media = <XmlSource jobId={job.id} name={name} />;
  } else {
    media = <p className="muted">{t('source.cannotShow', { mime: v.mime })}</p>;
  }
  return (
    <>
      {media}
      {meta}
    </>
  );
}
