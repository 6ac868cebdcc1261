// A batch not started yet: when it starts by itself ("Scheduled for ..."), and changing or
// removing that time (batches.schedule). Start (in the controls) starts it now instead.
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from './toast-store';
import type { BatchSummary } from '../../../shared/domain';
import { client } from '../client';
import { useAction } from '../hooks/use-action';
import { useBatchesStore } from '../store/batches-store';
import { formatDateTime } from '../format/time';
import { DoneNote, ErrorAlert } from './ErrorAlert';
import { DateTimeFields } from './DateTimeFields';
import { formatDateInput, formatTimeInput, readDateTimeInput } from '../format/date-input';

export function ScheduleControl({ batch }: { batch: BatchSummary }) {
  const action = useAction();
  const { t } = useTranslation('batches');
  const merge = useBatchesStore((s) => s.merge);
  const [editing, setEditing] = useState(false);
  // The date and the time as typed, the locale's way (format/date-input.ts).
  const [when, setWhen] = useState({ date: '', time: '' });
  const [note, setNote] = useState<string | null>(null);
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
    const read = readDateTimeInput(when.date, when.time);
    if (!read.ok) return action.run(() => Promise.reject(new Error(read.message)));
    if (read.at === null) return action.run(() => Promise.reject(new Error(t('schedule.enter'))));
    return save(read.at);
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
          className="row batch-card__schedule-form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DateTimeFields legend={t('schedule.startAt')} date={when.date} time={when.time} onChange={(date, time) => setWhen({ date, time })} />
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
              const d = scheduled !== null ? new Date(scheduled) : null;
              setWhen(d !== null ? { date: formatDateInput(d), time: formatTimeInput(d) } : { date: '', time: '' });
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
