// Pause, Resume (with a new budget when paused for budget; moved to the API set now when paused
// because its first items went to another), Cancel batch (confirmed),
// Retry failed and Export for one batch. Every failure is shown in an alert beside the buttons.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchSummary } from '../../../shared/domain';
import { assertNever } from '../../../shared/domain';
import { WINDOW_EXPORTS, WindowExportFormat, windowExportsFor } from '../../../shared/export-formats';
import { describe } from '../../../shared/capabilities/catalog';
import { parseEur } from '../../../shared/money';
import { client } from '../client';
import { useAction } from '../hooks/use-action';
import { useBatchesStore } from '../store/batches-store';
import { moneyInputValue } from '../format/money';
import { formatCount } from '../format/time';
import { spreadsheetLocale } from '../format/spreadsheet-locale';
import { raiseOf } from './RaiseAndResume';
import { ConfirmDialog } from './ConfirmDialog';
import { DoneNote, ErrorAlert } from './ErrorAlert';
import { toast } from './toast-store';
import { t as tr } from '../i18n';
import { ublWords } from '../results/ubl-words';
import './BatchControls.css';

/** A format of the Export menu in the window's words (the menu's formats: shared/export-formats.ts). */
function exportFormatWords(format: WindowExportFormat): string {
  switch (format) {
    case 'csv':
      return 'CSV';
    case 'json':
      return 'JSON';
    case 'txt':
      return tr('batch:controls.formatText');
    case 'invoices':
      return tr('batch:controls.formatInvoices');
    case 'line-items':
      return tr('batch:controls.formatLineItems');
    case 'xlsx':
      return tr('batch:controls.formatXlsx');
    case 'einvoices':
      return tr('batch:controls.formatEinvoices');
    default:
      return assertNever(format, 'export format');
  }
}

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

/** "40" or "12.50" / "12,50": an amount as the budget field takes it, with the locale's decimal sign. */
function typedAmount(amount: number, decimals: 0 | 2): string {
  const text = moneyInputValue(amount);
  const sign = text.match(/[^\d-]/)?.[0];
  if (sign === undefined) return text;
  const [whole = text, fraction = ''] = text.split(sign);
  return decimals === 0 ? whole : `${whole}${sign}${fraction.slice(0, decimals)}`;
}

export function BatchControls({ batch }: { batch: BatchSummary }) {
  const { t, i18n } = useTranslation('batch');
  const action = useAction();
  const merge = useBatchesStore((s) => s.merge);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [budgetText, setBudgetText] = useState('');
  const [clearBudget, setClearBudget] = useState(false);
  const [switchApi, setSwitchApi] = useState(false);
  const [format, setFormat] = useState<WindowExportFormat>('csv');
  const sheet = spreadsheetLocale(i18n.language);
  const [forSheet, setForSheet] = useState(sheet.decimalComma);
  // A note belongs to the status its action left: "Resumed." is not shown once the batch is done.
  const [noted, setNoted] = useState<{ text: string; status: BatchSummary['status'] } | null>(null);
  const note = noted !== null && noted.status === batch.status ? noted.text : null;
  const setNote = (text: string | null): void =>
    setNoted(text === null ? null : { text, status: useBatchesStore.getState().byId[batch.id]?.status ?? batch.status });
  const ids = { budget: useId(), budgetHint: useId(), clear: useId(), format: useId(), sheet: useId(), switchApi: useId(), switchHint: useId() };

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
      setNote(t('controls.started'));
      toast(tr('common:toast.started', { name: batch.name }));
    });

  const pause = () =>
    action.run(async () => {
      setNote(null);
      merge([await client().call('batches.pause', { id: batch.id })]);
      setNote(t('controls.paused'));
      toast(tr('common:toast.paused', { name: batch.name }));
    });

  // Raise-and-resume sits beside the pause's reason (RaiseAndResume); another budget is asked for here.
  const suggested = raiseOf(batch);

  const resume = () =>
    action.run(async () => {
      setNote(null);
      let budget: number | null | undefined;
      if (askBudget && clearBudget) budget = null;
      else if (askBudget && budgetText.trim() !== '') {
        const parsed = parseEur(budgetText);
        if (parsed === null) throw new Error(t('controls.notAmount', { text: budgetText, whole: typedAmount(250_000, 0), decimal: typedAmount(125_000, 2) }));
        budget = parsed;
      }
      const moving = askSwitch && switchApi;
      merge([await client().call('batches.resume', { id: batch.id, ...(budget === undefined ? {} : { budget }), ...(moving ? { switchApi: true } : {}) })]);
      setBudgetText('');
      setClearBudget(false);
      setSwitchApi(false);
      setNote(moving ? t('controls.resumedSwitch') : t('controls.resumed'));
      toast(tr('common:toast.resumed', { name: batch.name }));
    });

  const cancel = () => {
    setConfirmCancel(false);
    void action.run(async () => {
      setNote(null);
      merge([await client().call('batches.cancel', { id: batch.id })]);
      setNote(t('controls.cancelled'));
      toast(tr('common:toast.cancelled', { name: batch.name }));
    });
  };

  const retry = () =>
    action.run(async () => {
      setNote(null);
      const r = await client().call('batches.retry', { id: batch.id });
      merge([r.batch]);
      setNote(t('controls.retried', { count: r.requeued, n: formatCount(r.requeued) }));
      toast(tr('common:toast.retried', { count: r.requeued, n: formatCount(r.requeued), name: batch.name }));
    });

  const exportResults = () =>
    action.run(async () => {
      setNote(null);
      // The spreadsheet's times in the user's zone: in the browser, the engine's machine may be elsewhere.
      const csvLocale = forSheet && WINDOW_EXPORTS[format].csv ? { csvLocale: sheet.tag, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone } : {};
      const r = await client().call('batches.export', { id: batch.id, format, ...csvLocale });
      download(client().downloadUrl(r.token), r.fileName);
      const exported = t(format === 'einvoices' ? 'controls.exportedEinvoices' : 'controls.exported', {
        count: r.rows,
        n: formatCount(r.rows),
        file: r.fileName,
      });
      // E-invoices: how many pass EN 16931, and where the zip's report lists what the others lack.
      const ubl = ublWords(r.ubl);
      setNote(ubl === null ? exported : `${exported} ${ubl}`);
      toast(tr('common:toast.exported', { file: r.fileName }));
    });

  return (
    <div className="batch-controls">
      {askSwitch ? (
        <div className="batch-controls__budget">
          <div className="row">
            <input id={ids.switchApi} type="checkbox" checked={switchApi} aria-describedby={ids.switchHint} onChange={(e) => setSwitchApi(e.target.checked)} />
            <label htmlFor={ids.switchApi}>{t('controls.switchApi')}</label>
          </div>
          <span id={ids.switchHint} className="field-hint">
            {t('controls.switchHint')}
          </span>
        </div>
      ) : null}
      <div className="batch-controls__buttons">
        {canStart ? (
          <button type="button" className="primary" onClick={() => void startBatch()} disabled={action.busy}>
            {t('controls.start')}
          </button>
        ) : null}
        {canPause ? (
          <button type="button" onClick={() => void pause()} disabled={action.busy}>
            {t('controls.pause')}
          </button>
        ) : null}
        {canResume ? (
          <button type="button" className={suggested !== null ? undefined : 'primary'} onClick={() => void resume()} disabled={action.busy}>
            {t('controls.resume')}
          </button>
        ) : null}
        {askBudget ? (
          // Folded: the raise beside the reason is the usual answer; another amount or none is asked for here.
          <details className="batch-controls__other-budget" open={suggested === null ? true : undefined}>
            <summary>{t('controls.otherBudget')}</summary>
            <div className="batch-controls__budget">
              <div className="field">
                <label htmlFor={ids.budget}>{t('controls.newBudget')}</label>
                <input
                  id={ids.budget}
                  type="text"
                  inputMode="decimal"
                  value={budgetText}
                  disabled={clearBudget}
                  aria-describedby={ids.budgetHint}
                  onChange={(e) => setBudgetText(e.target.value)}
                  placeholder={batch.cost.budget !== null ? t('controls.budgetExample', { amount: typedAmount(400_000, 0) }) : ''}
                />
                <span id={ids.budgetHint} className="field-hint">
                  {t('controls.budgetHint')}
                </span>
              </div>
              <div className="row">
                <input id={ids.clear} type="checkbox" checked={clearBudget} onChange={(e) => setClearBudget(e.target.checked)} />
                <label htmlFor={ids.clear}>{t('controls.removeBudget')}</label>
              </div>
            </div>
          </details>
        ) : null}
        {canRetry ? (
          <button type="button" onClick={() => void retry()} disabled={action.busy}>
            {t('controls.retryFailed')}
          </button>
        ) : null}
        <span className="batch-controls__export">
          <label htmlFor={ids.format} className="visually-hidden">
            {t('controls.exportFormat')}
          </label>
          <select id={ids.format} value={format} onChange={(e) => setFormat(WindowExportFormat.parse(e.target.value))}>
            {windowExportsFor(describe(batch.capability).invoice !== undefined).map((f) => (
              <option key={f} value={f}>
                {exportFormatWords(f)}
              </option>
            ))}
          </select>
          {WINDOW_EXPORTS[format].csv ? (
            <span className="batch-controls__sheet">
              <input id={ids.sheet} type="checkbox" checked={forSheet} onChange={(e) => setForSheet(e.target.checked)} />
              <label htmlFor={ids.sheet} title={t('controls.forSpreadsheetHint')}>
                {t('controls.forSpreadsheet', { language: sheet.language })}
              </label>
            </span>
          ) : null}
          <button type="button" onClick={() => void exportResults()} disabled={action.busy}>
            {t('controls.export')}
          </button>
        </span>
        {canCancel ? (
          <button type="button" className="danger" onClick={() => setConfirmCancel(true)} disabled={action.busy}>
            {t('controls.cancelBatch')}
          </button>
        ) : null}
      </div>
      <ErrorAlert message={action.error} />
      <DoneNote message={note} />
      <ConfirmDialog
        open={confirmCancel}
        title={t('controls.confirmTitle', { name: batch.name })}
        confirmLabel={t('controls.confirmYes')}
        dismissLabel={t('controls.keepBatch')}
        onConfirm={cancel}
        onDismiss={() => setConfirmCancel(false)}
      >
        <p>{t('controls.confirmBody')}</p>
        {batch.pipeline ? <p>{t('controls.confirmPipeline', { step: batch.pipeline.step })}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
