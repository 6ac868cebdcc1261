// The job's result beside its source, as its capability's result view shows it; the error when
// it failed, and the raw answer.
import type { JobDetail } from '../../../shared/contract';
import { displayText } from '../format/source';
import { RESULT_VIEWS } from '../results/result-views';
import { MadeUpNotice } from '../components/MadeUpTag';
import { isMadeUp } from '../../../shared/made-up';

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
  const body = RESULT_VIEWS[job.capability](job);
  return (
    <>
      {isMadeUp(job.result) ? <MadeUpNotice /> : null}
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
