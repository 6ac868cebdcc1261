// A moment typed as a date and a time in the window's locale (format/date-input.ts), in place of
// datetime-local, whose "mm/dd/yyyy, --:-- --" follows the browser's language, not the window's.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimePlaceholders } from '../format/date-input';

export function DateTimeFields(p: {
  legend: string;
  date: string;
  time: string;
  onChange(date: string, time: string): void;
  /** Under the fields; an error takes its place. */
  hint?: string | undefined;
  error?: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation('common');
  const id = useId();
  const placeholders = dateTimePlaceholders();
  const note = p.error ?? p.hint;
  return (
    <fieldset className={`date-time ${p.className ?? ''}`} aria-describedby={note ? `${id}-note` : undefined} data-testid="date-time">
      <legend>{p.legend}</legend>
      <div className="date-time__inputs">
        <span className="date-time__part">
          <label htmlFor={`${id}-date`}>{t('dateInput.dateLabel')}</label>
          <input
            id={`${id}-date`}
            type="text"
            size={11}
            autoComplete="off"
            value={p.date}
            placeholder={placeholders.date}
            aria-invalid={p.error ? true : undefined}
            onChange={(e) => p.onChange(e.target.value, p.time)}
          />
        </span>
        <span className="date-time__part">
          <label htmlFor={`${id}-time`}>{t('dateInput.timeLabel')}</label>
          <input
            id={`${id}-time`}
            type="text"
            size={9}
            autoComplete="off"
            value={p.time}
            placeholder={placeholders.time}
            aria-invalid={p.error ? true : undefined}
            onChange={(e) => p.onChange(p.date, e.target.value)}
          />
        </span>
      </div>
      {note ? (
        <span id={`${id}-note`} className={p.error ? 'field-error' : 'field-hint'}>
          {note}
        </span>
      ) : null}
    </fieldset>
  );
}
