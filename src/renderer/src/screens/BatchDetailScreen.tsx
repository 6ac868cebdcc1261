// #/batches/<id>: the batch summary with its controls, the virtualized job table with filters,
// and (#/batches/<id>/jobs/<jobId>) one job's detail. #/batches/<id>/review[/jobs/<jobId>] is the
// same with the job list filtered to the invoices that need review.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JOB_STATES, type JobState } from '../../../shared/domain';
import { errorMessage } from '../client';
import { BatchSummaryCard } from '../components/BatchSummaryCard';
import { ErrorAlert } from '../components/ErrorAlert';
import { useDebounced } from '../hooks/use-debounced';
import { JobDetailDialog } from '../jobs/JobDetailDialog';
import { JobFilters } from '../jobs/JobFilters';
import { JobTable } from '../jobs/JobTable';
import { ResultFilesButton } from '../results/ResultFilesButton';
import { SkippedRowsButton } from '../batches/SkippedRowsButton';
import { reviewCount } from '../batches/batch-table-model';
import { ReviewCountsLine } from '../batches/ReviewCountsLine';
import { navigate } from '../routing/use-route';
import { describe } from '../../../shared/capabilities/catalog';
import { PipelineSteps } from '../pipeline/PipelineSteps';
import { ComparePanel } from '../compare/ComparePanel';
import { batchVersion, useBatchesStore } from '../store/batches-store';
import './BatchDetailScreen.css';

export function BatchDetailScreen({ id, jobId, review = false }: { id: string; jobId: number | null; review?: boolean }) {
  const { t } = useTranslation('batch');
  const batch = useBatchesStore((s) => s.byId[id]);
  const loaded = useBatchesStore((s) => s.loaded);
  const fetchOne = useBatchesStore((s) => s.fetchOne);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [states, setStates] = useState<Set<JobState>>(() => new Set(JOB_STATES));
  const [held, setHeld] = useState(true);
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 300);

  // A deep link may name a batch the list has not brought yet.
  useEffect(() => {
    if (batch || !loaded) return;
    fetchOne(id).catch((e: unknown) => setLoadError(errorMessage(e)));
  }, [batch, loaded, id, fetchOne]);

  if (!batch) {
    return (
      <div className="screen">
        <h1>{t('title', { id })}</h1>
        {loadError ? <ErrorAlert message={loadError} /> : <p className="muted">{t('loading')}</p>}
        <p>
          <a href="#/batches">{t('backToBatches')}</a>
        </p>
      </div>
    );
  }

  const version = batchVersion(batch);
  // Message batches hold messages on purpose: those have a box apart from the retries.
  const messages = describe(batch.capability).input.kind === 'messages';
  const stateFilter = states.size === JOB_STATES.length && (!messages || held) ? null : JOB_STATES.filter((s) => states.has(s));
  const heldFilter = messages && stateFilter !== null ? held : undefined;
  const invoices = describe(batch.capability).invoice !== undefined;
  // Only invoice batches are checked; a review link to any other batch lists all its jobs.
  const needsReview = invoices && review;
  const open = (job: number | null): void => navigate({ name: 'batch', id: batch.id, jobId: job, ...(needsReview ? { review: true } : {}) });
  return (
    <div className="screen batch-detail">
      {/* The way back rides on the header's first line: the header stays compact, so the jobs show first. */}
      <BatchSummaryCard
        batch={batch}
        detail
        back={
          <a href="#/batches" className="batch-detail__back">
            {t('allBatches')}
          </a>
        }
      />
      {invoices ? <ReviewCountsLine batch={batch} /> : null}
      {/* The jobs come first: what the batch is made of, then what can be done with its results. */}
      <section className="stack batch-detail__jobs" aria-labelledby="jobs-heading">
        {/* Named for assistive technology; on screen the filters' legend says it. */}
        <h2 id="jobs-heading" className="visually-hidden">
          {t('jobsHeading')}
        </h2>
        <JobFilters
          states={states}
          onStates={setStates}
          held={messages ? { on: held, onChange: setHeld } : null}
          search={searchText}
          onSearch={setSearchText}
          review={
            invoices
              ? {
                  on: needsReview,
                  count: reviewCount(batch),
                  onChange: (on) => navigate({ name: 'batch', id: batch.id, jobId: null, ...(on ? { review: true } : {}) }),
                }
              : null
          }
        />
        {stateFilter !== null && stateFilter.length === 0 && heldFilter !== true ? (
          <p className="muted">{t('chooseState')}</p>
        ) : (
          <JobTable
            batchId={batch.id}
            states={stateFilter}
            held={heldFilter}
            search={search}
            needsReview={needsReview}
            checks={invoices}
            messages={messages}
            thumbnails={describe(batch.capability).outputs === 'image' ? 'output' : describe(batch.capability).input.kind === 'files' ? 'source' : null}
            batchVersion={version}
            openJobId={jobId}
            onOpen={(job) => open(job.id)}
          />
        )}
      </section>
      <ResultFilesButton batch={batch} />
      <SkippedRowsButton batch={batch} />
      <PipelineSteps batch={batch} />
      <ComparePanel batch={batch} />
      <JobDetailDialog
        jobId={jobId}
        batchVersion={version}
        list={{ batchId: batch.id, states: stateFilter, held: heldFilter, search, needsReview }}
        onOpen={(id) => open(id)}
        onClose={() => open(null)}
      />
    </div>
  );
}
