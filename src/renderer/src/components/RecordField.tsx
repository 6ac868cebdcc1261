// One option or setting field drawn from its record (shared/capabilities/options.ts): New batch
// and the Watch folders form show the same label, hint, choices and rule.
import { useId } from 'react';
import type { OptionField } from '../../../shared/capabilities/options';
import { fieldWords, recordIdOf } from '../format/option-words';

/** A field from its record: a select for a closed choice, else text (one line or several); the hint turns into the error. */
export function RecordField(p: { field: OptionField; value: string; placeholder?: string | undefined; error: string | undefined; onChange(v: string): void }) {
  const id = useId();
  // A record's field speaks the window's language; a field that is no record's stays as given.
  const recordId = recordIdOf(p.field);
  const field = recordId === null ? p.field : fieldWords(recordId);
  const choices = field.choices;
  if (choices !== undefined) {
    return (
      <div className="field">
        <label htmlFor={id}>{field.label}</label>
        <select id={id} value={p.value} onChange={(e) => p.onChange(e.target.value)}>
          {Object.entries(choices).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const common = {
    id,
    value: p.value,
    placeholder: p.placeholder ?? field.placeholder,
    'aria-invalid': p.error ? true : undefined,
    'aria-describedby': `${id}-hint`,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {field.multiline ? (
        <textarea rows={2} {...common} onChange={(e) => p.onChange(e.target.value)} />
      ) : (
        <input type="text" {...common} onChange={(e) => p.onChange(e.target.value)} />
      )}
      <span id={`${id}-hint`} className={p.error ? 'field-error' : 'field-hint'}>
        {p.error ?? field.hint}
      </span>
    </div>
  );
}
