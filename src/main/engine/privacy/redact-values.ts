// Redaction of what an item carries: one text, a row's fields, or a stored result with its
// strings nested anywhere. Each replaced finding is tallied by field and kind, never by value.
import type { PersonalDataKind } from '../../../shared/privacy-kinds';
import type { RedactionTally } from '../../../shared/redaction-tally';
import { homeCountry } from './home-country';
import { redact } from './personal-data';

export class Tallies {
  private readonly counts = new Map<string, RedactionTally>();
  constructor(
    private readonly kinds: readonly PersonalDataKind[],
    private readonly where: RedactionTally['where'],
  ) {}

  /** `text` with the kinds replaced, each finding counted under `field`. */
  text(field: string, text: string): string {
    const r = redact(text, { kinds: this.kinds, country: homeCountry() });
    if (r.spans.length === 0) return text;
    for (const f of r.spans) {
      const key = `${field}\0${f.kind}`;
      const t = this.counts.get(key);
      this.counts.set(key, { where: this.where, field, kind: f.kind, count: (t?.count ?? 0) + 1 });
    }
    return r.text;
  }

  /** Every string in a JSON value (a result), counted under its top-level key; keys stay as they are. */
  json(value: unknown, field: string): unknown {
    if (typeof value === 'string') return this.text(field, value);
    if (Array.isArray(value)) return value.map((v) => this.json(v, field));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.json(v, field === '' ? k : field)]));
    }
    return value;
  }

  list(): RedactionTally[] {
    return [...this.counts.values()];
  }
}
