// A batch not started yet: when it starts by itself ("Scheduled for ..."), and changing or
// removing that time (batches.schedule). Start (in the controls) starts it now instead.
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from './toast-store';
import type { BatchSummary } from '../../../shared/domain';
import { client } from '../client';
import { useAction } from '../hooks/use-action';
import { useBatchesStore } from '../store/batches-store';
import { formatDateTime } from '../format/time';
import { DoneNote, ErrorAlert } from './ErrorAlert';

/** An ISO time as a datetime-local value in this computer's time ("2026-12-01T09:00"). */
function localInputValue(iso: string): string {
  const d = new Date(iso);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function ScheduleControl({ batch }: { batch: BatchSummary }) {
  const action = useAction();
  const { t } = useTranslation('batches');
  const merge = useBatchesStore((s) => s.merge);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const id = useId();
  const scheduled = batch.scheduled_for;

  const save = (at: number | null) =>
    action.run(async () => {
      setNote(null);
      merge([await client().call('batches.schedule', { id: batch.id, at })]);
      setEditing(false);
      setNote(at === null ? t('schedule.removed') : t('schedule.now', { at: formatDateTime(new Date(at).toISOString()) }));
      toast(
        at === null
          ? tr('common:toast.unscheduled', { name: batch.name })
          : tr('common:toast.scheduled', { name: batch.name, at: formatDateTime(new Date(at).toISOString()) }),
      );
    });

  const submit = () => {
    const at = new Date(text).getTime();
    if (!Number.isFinite(at)) return action.run(() => Promise.reject(new Error(t('schedule.enter'))));
    return save(at);
  };

  return (
    <div className="batch-card__schedule" data-testid="schedule">
      {scheduled !== null ? (
        <p className="batch-card__waiting" data-testid="scheduled-for">
          <Trans t={t} i18nKey="schedule.for" values={{ at: formatDateTime(scheduled) }} components={[<strong key="at" />]} />
        </p>
      ) : (
        <p className="batch-card__waiting" data-testid="not-started">
          {t('schedule.notStarted')}
        </p>
      )}
      {editing ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label htmlFor={id}>{t('schedule.startAt')}</label>
          <input id={id} type="datetime-local" value={text} onChange={(e) => setText(e.target.value)} required />
          <button type="submit" className="primary" disabled={action.busy}>
            {t('schedule.save')}
          </button>
          <button type="button" onClick={() => setEditing(false)} disabled={action.busy}>
            {t('schedule.keep')}
          </button>
        </form>
      ) : (
        <div className="row">
          <button
            type="button"
            onClick={() => {
              setText(scheduled !== null ? localInputValue(scheduled) : '');
              setEditing(true);
            }}
            disabled={action.busy}
          >
            {scheduled !== null ? t('schedule.change') : t('schedule.schedule')}
          </button>
          {scheduled !== null ? (
            <button type="button" onClick={() => void save(null)} disabled={action.busy}>
              {t('schedule.remove')}
            </button>
          ) : null}
        </div>
      )}
      <ErrorAlert message={action.error} />
      <DoneNote message={note} />
    </div>
  );
}
