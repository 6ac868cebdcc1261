// The job's result beside its source, as its capability's result view shows it; the error when
// it failed, and the raw answer.
import { useTranslation } from 'react-i18next';
import type { JobDetail } from '../../../shared/contract';
import { displayText } from '../format/source';
import { RESULT_VIEWS } from '../results/result-views';
import { MadeUpNotice, ReadBySandboxNotice } from '../components/MadeUpTag';
import { EMBEDDED_SANDBOX, isMadeUp } from '../../../shared/made-up';
import { readFromEInvoice } from '../../../shared/capabilities/catalog';
import { useBatchesStore } from '../store/batches-store';
import { i18n } from '../i18n';
import { errorLine, isHeld } from './job-row-words';

/** "Failed (invalid request), HTTP 422:" and its shorter forms, each a whole catalogue entry. */
function ErrorHeading({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  const kind = job.errorKind ? t(`outcome.${job.errorKind}`) : null;
  const status = job.httpStatus;
  const failed = job.state === 'failed';
  if (kind !== null && status !== null) return <>{t(failed ? 'error.failedKindHttp' : 'error.lastKindHttp', { kind, status })}</>;
  if (kind !== null) return <>{t(failed ? 'error.failedKind' : 'error.lastKind', { kind })}</>;
  if (status !== null) return <>{t(failed ? 'error.failedHttp' : 'error.lastHttp', { status })}</>;
  return <>{t(failed ? 'error.failed' : 'error.last')}</>;
}

function NoResult({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  // A planned hold is no error: said as what it is, in the text colour.
  if (isHeld(job)) {
    return (
      <p className="job-detail__held" data-testid="job-held-line">
        {errorLine(job)}
      </p>
    );
  }
  if (job.error) {
    // The headline in the window's language; the engine's and the API's own words as detail.
    return (
      <div className="job-detail__error">
        <p data-testid="job-error-line">
          <strong>
            <ErrorHeading job={job} />
          </strong>{' '}
          {errorLine(job)}
        </p>
        {job.errorKind !== null ? (
          <p className="muted job-detail__error-detail" lang="en">
            <span lang={i18n.language}>{t('errorDetail')}</span> {displayText(job.error)}
          </p>
        ) : null}
      </div>
    );
  }
  return <p className="muted">{t(`noResult.${job.state}`)}</p>;
}

function Raw({ job }: { job: JobDetail }) {
  const { t } = useTranslation('jobs');
  if (job.rawResponse === null) return null;
  return (
    <details className="job-detail__raw">
      <summary>{t('rawResponse')}</summary>
      <pre tabIndex={0}>{job.rawResponse}</pre>
    </details>
  );
}

export function JobResultView({ job }: { job: JobDetail }) {
  // Where the batch was sent: a result of the sandbox that is not made up is one it really read.
  const sentTo = useBatchesStore((s) => s.byId[job.batchId]?.sent_to ?? null);
  // An e-invoice is read on this computer, by no API.
  const readBySandbox = sentTo === EMBEDDED_SANDBOX && !readFromEInvoice(job.result);
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
      {isMadeUp(job.result) ? <MadeUpNotice /> : readBySandbox ? <ReadBySandboxNotice /> : null}
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
