// A batch paused by its budget offers one control beside its reason: raise the budget to what
// lets the rest run and resume. Shown in the batch's header and on its row in Batches alike.
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { client } from '../client';
import { useAction } from '../hooks/use-action';
import { useBatchesStore } from '../store/batches-store';
import { formatMoney } from '../format/money';
import { t as tr } from '../i18n';
import { suggestedBudget, suggestedResume } from './pause-words';
import { ErrorAlert } from './ErrorAlert';
import { toast } from './toast-store';

/** The budget that lets the rest run and the batch that holds it (a pipeline's step before); null when none is to ask. */
export function raiseOf(batch: BatchSummary): { holder: string; budget: number } | null {
  if (batch.status !== 'paused' || batch.pause?.kind !== 'budget') return null;
  const named = suggestedResume(batch.pause);
  if (named !== null) return { holder: named.id, budget: named.budget };
  // The estimate, or a tenth more when it was already the estimate.
  if (batch.cost.budget === null) return null;
  return { holder: batch.id, budget: suggestedBudget(batch.cost.budget, batch.cost.estimated, batch.cost.spent) };
}

export function RaiseAndResume({ batch }: { batch: BatchSummary }) {
  const { t } = useTranslation('batch');
  const action = useAction();
  const merge = useBatchesStore((s) => s.merge);
  const raise = raiseOf(batch);
  if (raise === null) return null;
  const run = () =>
    action.run(async () => {
      // A pipeline's budget is held by the step the engine named; resuming it resumes every step.
      const r = await client().call('batches.resume', { id: raise.holder, budget: raise.budget });
      merge(raise.holder === batch.id ? [r] : [r, await client().call('batches.get', { id: batch.id })]);
      toast(tr('common:toast.resumedWithBudget', { name: batch.name, amount: formatMoney(raise.budget) }));
    });
  return (
    <>
      <button type="button" className="primary batch-raise" onClick={() => void run()} disabled={action.busy}>
        {t('controls.raiseAndResume', { amount: formatMoney(raise.budget) })}
      </button>
      <ErrorAlert message={action.error} />
    </>
  );
}
