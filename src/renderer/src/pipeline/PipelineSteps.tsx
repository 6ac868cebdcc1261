// A pipeline on the batch screen: its steps in order, linked, each with its progress and cost,
// the current one marked; and the "Follow-up batch" action for a batch whose results offer text.
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { stepWords } from '../format/option-words';
import { describe } from '../../../shared/capabilities/catalog';
import { StatusPill } from '../components/StatusPill';
import { progressFigure } from '../batches/progress-figure';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { hrefFor } from '../routing/route';
import { navigate } from '../routing/use-route';
import { useBatchesStore } from '../store/batches-store';
import './PipelineSteps.css';

function labelOf(b: BatchSummary): string {
  return stepWords({ ...b.options, capability: b.capability });
}

export function PipelineSteps({ batch }: { batch: BatchSummary }) {
  const byId = useBatchesStore((s) => s.byId);
  const { t } = useTranslation('pipeline');
  const pipelineId = batch.pipeline?.id ?? null;
  const steps =
    pipelineId === null
      ? []
      : Object.values(byId)
          .filter((b) => b.pipeline?.id === pipelineId)
          .sort((a, b) => (a.pipeline?.step ?? 0) - (b.pipeline?.step ?? 0) || a.created_at.localeCompare(b.created_at));
  const canFollow = describe(batch.capability).yields !== null && batch.status !== 'cancelled';
  if (steps.length < 2 && !canFollow) return null;
  const spent = steps.reduce((n, b) => n + b.cost.spent, 0);
  const estimated = steps.reduce((n, b) => n + b.cost.estimated, 0);
  return (
    <section className="pipeline card stack" aria-labelledby="pipeline-heading">
      <div className="row pipeline__head">
        <h2 id="pipeline-heading">{steps.length >= 2 ? t('heading', { count: steps.length }) : t('next')}</h2>
        {steps.length >= 2 ? <span className="muted tabular">{t('spent', { spent: formatMoney(spent), estimated: formatMoney(estimated) })}</span> : null}
        {canFollow ? (
          <button type="button" onClick={() => navigate({ name: 'new', from: batch.id })}>
            {t('followUp')}
          </button>
        ) : null}
      </div>
      {steps.length >= 2 ? (
        <ol className="pipeline__steps">
          {steps.map((b) => {
            const here = b.id === batch.id;
            const figure = progressFigure(b);
            return (
              <li
                key={b.id}
                className={`pipeline__step${here ? ' pipeline__step--here' : ''}`}
                data-testid={`pipeline-step-${b.pipeline?.step ?? 0}`}
                aria-current={here ? 'step' : undefined}
              >
                <span className="pipeline__number">{t('step', { n: b.pipeline?.step ?? 0 })}</span>
                {here ? <strong>{labelOf(b)}</strong> : <a href={hrefFor({ name: 'batch', id: b.id, jobId: null })}>{labelOf(b)}</a>}
                <StatusPill status={b.status} scheduled={b.scheduled_for !== null} />
                <span className="tabular">
                  {t('done', { n: formatCount(figure.done), total: formatCount(figure.total) })}
                  {b.pipeline && b.pipeline.awaiting > 0 ? ` · ${t('awaiting', { n: formatCount(b.pipeline.awaiting) })}` : ''}
                </span>
                <span className="tabular muted">{t('cost', { spent: formatMoney(b.cost.spent), estimated: formatMoney(b.cost.estimated) })}</span>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">{t('followUpHint')}</p>
      )}
    </section>
  );
}
