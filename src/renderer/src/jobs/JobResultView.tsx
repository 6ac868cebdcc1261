// The job's result beside its source: extracted invoice fields and text, the transcript, or the
// send response; the error when it failed.
import type { JobDetail } from '../../../shared/contract';
import { displayText } from '../format/source';
import { ChannelResult, INVOICE_FIELDS, OcrResult, TranscribeResult } from './result-shapes';

function NoResult({ job }: { job: JobDetail }) {
  if (job.error) {
    return (
      <div className="job-detail__error">
        <p>
          <strong>
            {job.state === 'failed' ? 'Failed' : 'Last error'}
            {job.errorKind ? ` (${job.errorKind.replace('_', ' ')})` : ''}
            {job.httpStatus !== null ? `, HTTP ${job.httpStatus}` : ''}:
          </strong>{' '}
          {displayText(job.error)}
        </p>
      </div>
    );
  }
  return <p className="muted">No result yet: the job is {job.state.replace('_', ' ')}.</p>;
}

function Raw({ job }: { job: JobDetail }) {
  if (job.rawResponse === null) return null;
  return (
    <details className="job-detail__raw">
      <summary>Raw response</summary>
      <pre tabIndex={0}>{job.rawResponse}</pre>
    </details>
  );
}

export function JobResultView({ job }: { job: JobDetail }) {
  if (job.result === null || job.result === undefined) {
    return (
      <>
        <NoResult job={job} />
        <Raw job={job} />
      </>
    );
  }
  let body;
  switch (job.capability) {
    case 'ocr': {
      const r = OcrResult.safeParse(job.result);
      if (!r.success) break;
      const fields = r.data.fields ?? {};
      body = (
        <>
          <table className="job-detail__table">
            <caption>Extracted fields</caption>
            <tbody>
              {INVOICE_FIELDS.map(([key, label]) => (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td>{fields[key] ?? <span className="muted">not found</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>Text</h4>
          <pre className="job-detail__text" tabIndex={0}>
            {r.data.text}
          </pre>
        </>
      );
      break;
    }
    case 'transcribe': {
      const r = TranscribeResult.safeParse(job.result);
      if (!r.success) break;
      body = (
        <>
          <h4>Transcript</h4>
          <p className="job-detail__transcript">{r.data.text}</p>
          <p className="muted">
            {r.data.language ? `Language: ${r.data.language}` : 'Language not reported'}
            {r.data.duration_seconds != null ? ` · ${r.data.duration_seconds} s of audio reported` : ''}
          </p>
        </>
      );
      break;
    }
    case 'channel': {
      const r = ChannelResult.safeParse(job.result);
      if (!r.success) break;
      body = (
        <dl className="job-detail__fields">
          <dt>Message id</dt>
          <dd className="mono">{r.data.message_id ?? '—'}</dd>
          <dt>Status</dt>
          <dd>{r.data.status ?? '—'}</dd>
        </dl>
      );
      break;
    }
  }
  return (
    <>
      {body ?? (
        <pre className="job-detail__text" tabIndex={0}>
          {JSON.stringify(job.result, null, 2)}
        </pre>
      )}
      {job.error ? <NoResult job={job} /> : null}
      <Raw job={job} />
    </>
  );
}
