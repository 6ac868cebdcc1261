// One result view per capability: the compiler refuses a capability without one. Each shows a
// succeeded job's result (parsed with its descriptor's schema); JobResultView adds the error,
// the raw answer and the fallback.
import { deliveryWords } from '../format/delivery-words';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { useTranslation } from 'react-i18next';
import type { JobDetail } from '../../../shared/contract';
import type { BatchCapability } from '../../../shared/domain';
import {
  ChannelResult,
  CrmResult,
  EmbeddingsResult,
  ImageResult,
  invoiceOf,
  OcrResult,
  TextResult,
  TranscribeResult,
  TtsResult,
  type TranscriptSegment,
} from '../../../shared/capabilities/catalog';
import { client } from '../client';
import { formatOffset } from '../format/time';
import { usePlayback } from '../jobs/playback-store';
import { InvoiceView } from './invoice-view';
import { InvoiceReviewPanel } from './invoice-review';
import { formatBytes, formatDecimal } from './local-numbers';

type ResultView = (job: JobDetail) => ReactNode | null;

/**
 * A transcript's segments with their times and speakers; each plays the recording beside it
 * (the source pane's player) from its start, when the recording is shown there.
 */
function TranscriptSegments({ jobId, segments }: { jobId: number; segments: readonly TranscriptSegment[] }) {
  const { t } = useTranslation('results');
  const playable = usePlayback((s) => s.player?.jobId === jobId);
  const playFrom = usePlayback((s) => s.playFrom);
  return (
    <>
      {playable ? <p className="muted job-detail__segments-hint">{t('transcript.playHint')}</p> : null}
      <ol className="job-detail__segments" aria-label={t('transcript.segments')}>
        {segments.map((seg, i) => {
          const body = (
            <>
              <span className="job-detail__segment-time tabular">
                {formatOffset(seg.start)}–{formatOffset(seg.end)}
              </span>
              {seg.speaker ? <span className="job-detail__speaker">{seg.speaker}</span> : null}
              <span className="job-detail__segment-text">{seg.text}</span>
            </>
          );
          return (
            <li key={i}>
              {playable ? (
                <button
                  type="button"
                  className="job-detail__segment"
                  title={t('transcript.playFrom', { time: formatOffset(seg.start) })}
                  onClick={() => playFrom(jobId, seg.start)}
                >
                  {body}
                </button>
              ) : (
                <div className="job-detail__segment">{body}</div>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

function TranscribeView({ job, data }: { job: JobDetail; data: z.infer<typeof TranscribeResult> }) {
  const { t } = useTranslation('results');
  const segments = data.segments ?? [];
  const about = [
    data.language ? t('transcript.language', { language: data.language }) : t('transcript.noLanguage'),
    ...(data.duration_seconds != null ? [t('transcript.audioReported', { s: formatDecimal(data.duration_seconds, 2) })] : []),
  ];
  return (
    <>
      <h4>{t('transcript.heading')}</h4>
      {segments.length > 0 ? <TranscriptSegments jobId={job.id} segments={segments} /> : <p className="job-detail__transcript">{data.text}</p>}
      <p className="muted">{about.join(' · ')}</p>
    </>
  );
}

const transcribe: ResultView = (job) => {
  const r = TranscribeResult.safeParse(job.result);
  return r.success ? <TranscribeView job={job} data={r.data} /> : null;
};

function OcrView({ job, data }: { job: JobDetail; data: z.infer<typeof OcrResult> }) {
  const { t } = useTranslation('results');
  const e = data.read_from === 'e-invoice' ? data.e_invoice : undefined;
  return (
    <>
      {e ? (
        <p className="muted" data-testid="read-from-einvoice">
          {e.attachment ? t('ocr.fromEInvoiceAttachment', { syntax: e.syntax, attachment: e.attachment }) : t('ocr.fromEInvoice', { syntax: e.syntax })}
        </p>
      ) : null}
      {/* A checked invoice is reviewed here (corrected, accepted or rejected); below, the reading as it came. */}
      {job.review ? <InvoiceReviewPanel job={job} /> : null}
      <InvoiceView invoice={invoiceOf(job.result)} />
      <h4>{t('ocr.text')}</h4>
      <pre className="job-detail__text" tabIndex={0}>
        {data.text}
      </pre>
    </>
  );
}

const ocr: ResultView = (job) => {
  const r = OcrResult.safeParse(job.result);
  return r.success ? <OcrView job={job} data={r.data} /> : null;
};

function ChannelView({ data }: { data: z.infer<typeof ChannelResult> }) {
  const { t } = useTranslation('results');
  return (
    <dl className="job-detail__fields">
      <dt>{t('channel.messageId')}</dt>
      <dd className="mono">{data.message_id ?? '—'}</dd>
      <dt>{t('channel.status')}</dt>
      {/* The provider's own word stays reachable as the tooltip. */}
      <dd title={data.status ?? undefined} data-testid="delivery-state">
        {data.status ? deliveryWords(data.status) : '—'}
      </dd>
    </dl>
  );
}

const channel: ResultView = (job) => {
  const r = ChannelResult.safeParse(job.result);
  return r.success ? <ChannelView data={r.data} /> : null;
};

function TtsView({ job, data }: { job: JobDetail; data: z.infer<typeof TtsResult> }) {
  const { t } = useTranslation('results');
  return (
    <>
      <audio controls preload="metadata" src={client().outputUrl(job.id)} className="job-detail__audio" aria-label={t('tts.label', { file: data.file })}>
        {t('tts.cannotPlay')}
      </audio>
      <p className="muted">
        <span className="mono">{data.file}</span> · {t('tts.voice', { voice: data.voice })} · {data.mime} · {formatBytes(data.bytes)}
      </p>
    </>
  );
}

const tts: ResultView = (job) => {
  const r = TtsResult.safeParse(job.result);
  return r.success ? <TtsView job={job} data={r.data} /> : null;
};

const TEXT_TASKS = ['summary', 'reply', 'extract'] as const;

function TextView({ data }: { data: z.infer<typeof TextResult> }) {
  const { t } = useTranslation('results');
  const task = TEXT_TASKS.find((x) => x === data.task) ?? 'answer';
  return (
    <>
      {data.label !== null ? (
        <p>
          {t('text.label')} <strong className="job-detail__label">{data.label}</strong>
        </p>
      ) : null}
      <h4>{t(`text.${task}`)}</h4>
      <p className="job-detail__transcript">{data.text}</p>
    </>
  );
}

const text: ResultView = (job) => {
  const r = TextResult.safeParse(job.result);
  return r.success ? <TextView data={r.data} /> : null;
};

function ImageView({ job, data }: { job: JobDetail; data: z.infer<typeof ImageResult> }) {
  const { t } = useTranslation('results');
  return (
    <>
      <img
        src={client().outputUrl(job.id)}
        alt={t('image.alt', { file: data.file })}
        className="job-detail__image"
        loading="lazy"
        {...(data.width !== null && data.height !== null ? { width: data.width, height: data.height } : {})}
      />
      <p className="muted">
        <span className="mono">{data.file}</span>
        {data.width !== null && data.height !== null ? ` · ${data.width}×${data.height}` : ''} · {formatBytes(data.bytes)}
      </p>
    </>
  );
}

const image: ResultView = (job) => {
  const r = ImageResult.safeParse(job.result);
  return r.success ? <ImageView job={job} data={r.data} /> : null;
};

function EmbeddingsView({ data }: { data: z.infer<typeof EmbeddingsResult> }) {
  const { t } = useTranslation('results');
  return <p>{t('embeddings.vector', { n: formatDecimal(data.dimensions, 0) })}</p>;
}

const embeddings: ResultView = (job) => {
  const r = EmbeddingsResult.safeParse(job.result);
  return r.success ? <EmbeddingsView data={r.data} /> : null;
};

function CrmView({ data }: { data: z.infer<typeof CrmResult> }) {
  const { t } = useTranslation('results');
  return (
    <dl className="job-detail__fields">
      <dt>{t('crm.record')}</dt>
      <dd>{data.record}</dd>
      <dt>{t('crm.id')}</dt>
      <dd className="mono">{data.record_id}</dd>
    </dl>
  );
}

const crm: ResultView = (job) => {
  const r = CrmResult.safeParse(job.result);
  return r.success ? <CrmView data={r.data} /> : null;
};

export const RESULT_VIEWS: Record<BatchCapability, ResultView> = { transcribe, ocr, channel, tts, text, image, embeddings, crm };
