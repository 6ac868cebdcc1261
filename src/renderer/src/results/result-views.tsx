// One result view per capability: the compiler refuses a capability without one. Each shows a
// succeeded job's result (parsed with its descriptor's schema); JobResultView adds the error,
// the raw answer and the fallback.
import type { ReactNode } from 'react';
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

type ResultView = (job: JobDetail) => ReactNode | null;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A transcript's segments with their times and speakers; each plays the recording beside it
 * (the source pane's player) from its start, when the recording is shown there.
 */
function TranscriptSegments({ jobId, segments }: { jobId: number; segments: readonly TranscriptSegment[] }) {
  const playable = usePlayback((s) => s.player?.jobId === jobId);
  const playFrom = usePlayback((s) => s.playFrom);
  return (
    <>
      {playable ? <p className="muted job-detail__segments-hint">Click a segment to play the recording from there.</p> : null}
      <ol className="job-detail__segments" aria-label="Transcript segments">
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
                  title={`Play the recording from ${formatOffset(seg.start)}`}
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

const transcribe: ResultView = (job) => {
  const r = TranscribeResult.safeParse(job.result);
  if (!r.success) return null;
  const segments = r.data.segments ?? [];
  return (
    <>
      <h4>Transcript</h4>
      {segments.length > 0 ? <TranscriptSegments jobId={job.id} segments={segments} /> : <p className="job-detail__transcript">{r.data.text}</p>}
      <p className="muted">
        {r.data.language ? `Language: ${r.data.language}` : 'Language not reported'}
        {r.data.duration_seconds != null ? ` · ${r.data.duration_seconds} s of audio reported` : ''}
      </p>
    </>
  );
};

const ocr: ResultView = (job) => {
  const r = OcrResult.safeParse(job.result);
  if (!r.success) return null;
  const e = r.data.read_from === 'e-invoice' ? r.data.e_invoice : undefined;
  return (
    <>
      {e ? (
        <p className="muted" data-testid="read-from-einvoice">
          {`Read from the e-invoice (${e.syntax}${e.attachment ? `, embedded in the PDF as ${e.attachment}` : ''}) on this computer: no OCR request, no cost.`}
        </p>
      ) : null}
      {/* A checked invoice is reviewed here (corrected, accepted or rejected); below, the reading as it came. */}
      {job.review ? <InvoiceReviewPanel job={job} /> : null}
      <InvoiceView invoice={invoiceOf(job.result)} />
      <h4>Text</h4>
      <pre className="job-detail__text" tabIndex={0}>
        {r.data.text}
      </pre>
    </>
  );
};

const channel: ResultView = (job) => {
  const r = ChannelResult.safeParse(job.result);
  if (!r.success) return null;
  return (
    <dl className="job-detail__fields">
      <dt>Message id</dt>
      <dd className="mono">{r.data.message_id ?? '—'}</dd>
      <dt>Status</dt>
      <dd>{r.data.status ?? '—'}</dd>
    </dl>
  );
};

const tts: ResultView = (job) => {
  const r = TtsResult.safeParse(job.result);
  if (!r.success) return null;
  return (
    <>
      <audio controls preload="metadata" src={client().outputUrl(job.id)} className="job-detail__audio" aria-label={`Speech ${r.data.file}`}>
        Your browser cannot play this audio.
      </audio>
      <p className="muted">
        <span className="mono">{r.data.file}</span> · voice {r.data.voice} · {r.data.mime} · {formatBytes(r.data.bytes)}
      </p>
    </>
  );
};

const text: ResultView = (job) => {
  const r = TextResult.safeParse(job.result);
  if (!r.success) return null;
  return (
    <>
      {r.data.label !== null ? (
        <p>
          Label: <strong className="job-detail__label">{r.data.label}</strong>
        </p>
      ) : null}
      <h4>{r.data.task === 'summary' ? 'Summary' : r.data.task === 'reply' ? 'Reply' : r.data.task === 'extract' ? 'Extract' : 'Answer'}</h4>
      <p className="job-detail__transcript">{r.data.text}</p>
    </>
  );
};

const image: ResultView = (job) => {
  const r = ImageResult.safeParse(job.result);
  if (!r.success) return null;
  return (
    <>
      <img src={client().outputUrl(job.id)} alt={`Generated image ${r.data.file}`} className="job-detail__image" />
      <p className="muted">
        <span className="mono">{r.data.file}</span>
        {r.data.width !== null && r.data.height !== null ? ` · ${r.data.width}×${r.data.height}` : ''} · {formatBytes(r.data.bytes)}
      </p>
    </>
  );
};

const embeddings: ResultView = (job) => {
  const r = EmbeddingsResult.safeParse(job.result);
  if (!r.success) return null;
  return <p>A vector of {r.data.dimensions} dimensions is stored with this item (as 32-bit floats) for search.</p>;
};

const crm: ResultView = (job) => {
  const r = CrmResult.safeParse(job.result);
  if (!r.success) return null;
  return (
    <dl className="job-detail__fields">
      <dt>Record</dt>
      <dd>{r.data.record}</dd>
      <dt>CRM id</dt>
      <dd className="mono">{r.data.record_id}</dd>
    </dl>
  );
};

export const RESULT_VIEWS: Record<BatchCapability, ResultView> = { transcribe, ocr, channel, tts, text, image, embeddings, crm };
