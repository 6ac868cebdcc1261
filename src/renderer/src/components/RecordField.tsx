// One option or setting field drawn from its record (shared/capabilities/options.ts): New batch
// and the Watch folders form show the same label, hint, choices and rule.
import { useId } from 'react';
import type { OptionField } from '../../../shared/capabilities/options';
import { fieldWords, recordIdOf, severalOf } from '../format/option-words';

/** A field from its record: checkboxes for several choices, a select for one, else text (one line or several); the hint turns into the error. */
export function RecordField(p: { field: OptionField; value: string; placeholder?: string | undefined; error: string | undefined; onChange(v: string): void }) {
  const id = useId();
  // A record's field speaks the window's language; a field that is no record's stays as given.
  const recordId = recordIdOf(p.field);
  const field = recordId === null ? p.field : fieldWords(recordId);
  const choices = field.choices;
  if (choices !== undefined && field.several === true) {
    // Checkboxes with the kinds' names; the value stays the codes ("cards,iban"), which the record reads.
    const checked = new Set(severalOf(p.value, Object.keys(choices)));
    const toggle = (code: string, on: boolean): void => {
      const next = Object.keys(choices).filter((c) => (c === code ? on : checked.has(c)));
      p.onChange(next.join(','));
    };
    return (
      <fieldset className="field field--several" aria-describedby={`${id}-hint`}>
        <legend>{field.label}</legend>
        <div className="field__checks">
          {Object.entries(choices).map(([value, name]) => (
            <label key={value} className="field__check">
              <input type="checkbox" value={value} checked={checked.has(value)} onChange={(e) => toggle(value, e.target.checked)} />
              {name}
            </label>
          ))}
        </div>
        <span id={`${id}-hint`} className={p.error ? 'field-error' : 'field-hint'}>
          {p.error ?? field.hint}
        </span>
      </fieldset>
    );
  }
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
