// Pause, Resume (with a new budget when paused for budget; moved to the API set now when paused
// because its first items went to another), Cancel batch (confirmed),
// Retry failed and Export for one batch. Every failure is shown in an alert beside the buttons.
import { useId, useState } from 'react';
import type { BatchSummary } from '../../../shared/domain';
import type { ArgOf } from '../../../shared/contract';
import { describe } from '../../../shared/capabilities/catalog';
import { parseEur } from '../../../shared/money';
import { client } from '../client';
import { useAction } from '../hooks/use-action';
import { useBatchesStore } from '../store/batches-store';
import { formatMoney } from '../format/money';
import { suggestedBudget, suggestedResume } from './pause-words';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorAlert, StatusNote } from './ErrorAlert';
import './BatchControls.css';

type ExportFormat = ArgOf<'batches.export'>['format'];

/** Starts a download of an export through a real <a download>, as the brief of each transport expects. */
function download(href: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

export function BatchControls({ batch }: { batch: BatchSummary }) {
  const action = useAction();
  const merge = useBatchesStore((s) => s.merge);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [budgetText, setBudgetText] = useState('');
  const [clearBudget, setClearBudget] = useState(false);
  const [switchApi, setSwitchApi] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('csv');
  // A note belongs to the status its action left: "Resumed." is not shown once the batch is done.
  const [noted, setNoted] = useState<{ text: string; status: BatchSummary['status'] } | null>(null);
  const note = noted !== null && noted.status === batch.status ? noted.text : null;
  const setNote = (text: string | null): void =>
    setNoted(text === null ? null : { text, status: useBatchesStore.getState().byId[batch.id]?.status ?? batch.status });
  const ids = { budget: useId(), budgetHint: useId(), clear: useId(), format: useId(), switchApi: useId(), switchHint: useId() };

  const { status, counts } = batch;
  const canStart = status === 'pending';
  const canPause = status === 'running';
  const canResume = status === 'paused';
  const canCancel = status === 'running' || status === 'pending' || status === 'paused';
  const canRetry = counts.failed > 0 && status !== 'cancelled';
  const askBudget = canResume && batch.pause?.kind === 'budget';
  const askSwitch = canResume && batch.pause?.kind === 'api';

  const startBatch = () =>
    action.run(async () => {
      setNote(null);
      merge([await client().call('batches.start', { id: batch.id })]);
      setNote('Started.');
    });

  const pause = () =>
    action.run(async () => {
      setNote(null);
      merge([await client().call('batches.pause', { id: batch.id })]);
      setNote('Paused. Items in flight finish; nothing new is sent.');
    });

  // The budget that lets the rest run: the estimate, or a tenth more when it was already the estimate.
  const named = askBudget && batch.pause ? suggestedResume(batch.pause.reason) : null;
  const suggested =
    named?.budget ?? (askBudget && batch.cost.budget !== null ? suggestedBudget(batch.cost.budget, batch.cost.estimated, batch.cost.spent) : null);
  const raiseAndResume = (to: number) =>
    action.run(async () => {
      setNote(null);
      // A pipeline's budget is held by the step the engine named; resuming it resumes every step.
      const holder = named?.id ?? batch.id;
      const r = await client().call('batches.resume', { id: holder, budget: to });
      merge(holder === batch.id ? [r] : [r, await client().call('batches.get', { id: batch.id })]);
      setNote(`Resumed with a budget of ${formatMoney(to)}.`);
    });

  const resume = () =>
    action.run(async () => {
      setNote(null);
      let budget: number | null | undefined;
      if (askBudget && clearBudget) budget = null;
      else if (askBudget && budgetText.trim() !== '') {
        const parsed = parseEur(budgetText);
        if (parsed === null) throw new Error(`"${budgetText}" is not an amount in EUR (for example 25 or 12.50).`);
        budget = parsed;
      }
      const moving = askSwitch && switchApi;
      merge([await client().call('batches.resume', { id: batch.id, ...(budget === undefined ? {} : { budget }), ...(moving ? { switchApi: true } : {}) })]);
      setBudgetText('');
      setClearBudget(false);
      setSwitchApi(false);
      setNote(moving ? 'Resumed: the rest goes to the API set now.' : 'Resumed.');
    });

  const cancel = () => {
    setConfirmCancel(false);
    void action.run(async () => {
      setNote(null);
      merge([await client().call('batches.cancel', { id: batch.id })]);
      setNote('Cancelled. Items not yet sent will not be sent.');
    });
  };

  const retry = () =>
    action.run(async () => {
      setNote(null);
      const r = await client().call('batches.retry', { id: batch.id });
      merge([r.batch]);
      setNote(`${r.requeued} failed item${r.requeued === 1 ? '' : 's'} queued again, with the same idempotency keys.`);
    });

  const exportResults = () =>
    action.run(async () => {
      setNote(null);
      const r = await client().call('batches.export', { id: batch.id, format });
      download(client().downloadUrl(r.token), r.fileName);
      setNote(`Exported ${r.rows} row${r.rows === 1 ? '' : 's'} as ${r.fileName}.`);
    });

  return (
    <div className="batch-controls">
      {askBudget ? (
        <div className="batch-controls__budget">
          <div className="field">
            <label htmlFor={ids.budget}>New budget in EUR</label>
            <input
              id={ids.budget}
              type="text"
              inputMode="decimal"
              value={budgetText}
              disabled={clearBudget}
              aria-describedby={ids.budgetHint}
              onChange={(e) => setBudgetText(e.target.value)}
              placeholder={batch.cost.budget !== null ? 'e.g. 40' : ''}
            />
            <span id={ids.budgetHint} className="field-hint">
              Optional. Leave empty to keep the current budget.
            </span>
          </div>
          <div className="row">
            <input id={ids.clear} type="checkbox" checked={clearBudget} onChange={(e) => setClearBudget(e.target.checked)} />
            <label htmlFor={ids.clear}>Remove the budget</label>
          </div>
        </div>
      ) : null}
      {askSwitch ? (
        <div className="batch-controls__budget">
          <div className="row">
            <input id={ids.switchApi} type="checkbox" checked={switchApi} aria-describedby={ids.switchHint} onChange={(e) => setSwitchApi(e.target.checked)} />
            <label htmlFor={ids.switchApi}>Send the rest to the API set now</label>
          </div>
          <span id={ids.switchHint} className="field-hint">
            Only the API its first items went to knows their idempotency keys: elsewhere, an item whose answer was lost may be sent twice. Leave this off and
            set that API again (Keys & rates, Settings) to go on there.
          </span>
        </div>
      ) : null}
      <div className="batch-controls__buttons">
        {canStart ? (
          <button type="button" className="primary" onClick={() => void startBatch()} disabled={action.busy}>
            Start
          </button>
        ) : null}
        {canPause ? (
          <button type="button" onClick={() => void pause()} disabled={action.busy}>
            Pause
          </button>
        ) : null}
        {suggested !== null ? (
          <button type="button" className="primary" onClick={() => void raiseAndResume(suggested)} disabled={action.busy}>
            {`Raise budget to ${formatMoney(suggested)} and resume`}
          </button>
        ) : null}
        {canResume ? (
          <button type="button" className={suggested !== null ? undefined : 'primary'} onClick={() => void resume()} disabled={action.busy}>
            Resume
          </button>
        ) : null}
        {canRetry ? (
          <button type="button" onClick={() => void retry()} disabled={action.busy}>
            Retry failed
          </button>
        ) : null}
        <span className="batch-controls__export">
          <label htmlFor={ids.format} className="visually-hidden">
            Export format
          </label>
          <select id={ids.format} value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
            <option value="txt">Text</option>
            {describe(batch.capability).invoice ? (
              <>
                <option value="invoices">Invoices (CSV, with checks)</option>
                <option value="line-items">Line items (CSV)</option>
                <option value="xlsx">Invoices and line items (Excel)</option>
              </>
            ) : null}
          </select>
          <button type="button" onClick={() => void exportResults()} disabled={action.busy}>
            Export
          </button>
        </span>
        {canCancel ? (
          <button type="button" className="danger" onClick={() => setConfirmCancel(true)} disabled={action.busy}>
            Cancel batch
          </button>
        ) : null}
      </div>
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
      <ConfirmDialog
        open={confirmCancel}
        title={`Cancel "${batch.name}"?`}
        confirmLabel="Yes, cancel batch"
        dismissLabel="Keep batch"
        onConfirm={cancel}
        onDismiss={() => setConfirmCancel(false)}
      >
        <p>
          Items not yet sent will not be sent. Items already done stay done and keep their cost. This cannot be undone; to run the rest later, create a new
          batch.
        </p>
        {batch.pipeline ? (
          <p>
            This batch is step {batch.pipeline.step} of a pipeline: its steps with work left are cancelled, and finished ones stay as they are (pause and resume
            act on every step).
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
