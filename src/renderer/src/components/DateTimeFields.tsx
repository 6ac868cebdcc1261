// A moment typed as a date and a time in the window's locale (format/date-input.ts), in place of
// datetime-local, whose "mm/dd/yyyy, --:-- --" follows the browser's language, not the window's.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimePlaceholders } from '../format/date-input';

/** One of the two typed parts, with its label. */
function Part(p: { id: string; label: string; size: number; value: string; placeholder: string; invalid: boolean; onChange(value: string): void }) {
  return (
    <span className="date-time__part">
      <label htmlFor={p.id}>{p.label}</label>
      <input
        id={p.id}
        type="text"
        size={p.size}
        autoComplete="off"
        value={p.value}
        placeholder={p.placeholder}
        aria-invalid={p.invalid ? true : undefined}
        onChange={(e) => p.onChange(e.target.value)}
      />
    </span>
  );
}

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
        <Part
          id={`${id}-date`}
          label={t('dateInput.dateLabel')}
          size={11}
          value={p.date}
          placeholder={placeholders.date}
          invalid={Boolean(p.error)}
          onChange={(v) => p.onChange(v, p.time)}
        />
        <Part
          id={`${id}-time`}
          label={t('dateInput.timeLabel')}
          size={9}
          value={p.time}
          placeholder={placeholders.time}
          invalid={Boolean(p.error)}
          onChange={(v) => p.onChange(p.date, v)}
        />
      </div>
      {note ? (
        <span id={`${id}-note`} className={p.error ? 'field-error' : 'field-hint'}>
          {note}
        </span>
      ) : null}
    </fieldset>
  );
}
