// Every capability and option record reaches the window through the `options` catalogue: a record
// without its entry (or with English that no longer matches the record) fails here, so a new
// option cannot show untranslated. German parity is the i18n-catalogues test's job.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPABILITY_DESCRIPTORS } from '../../../src/shared/capabilities/catalog';
import { BATCH_SETTINGS, CAPABILITY_OPTIONS, type CapabilityOption, type OptionField } from '../../../src/shared/capabilities/options';
import { choiceKey } from '../../../src/renderer/src/format/option-words';

const LOCALES = join(__dirname, '..', '..', '..', 'src', 'renderer', 'src', 'i18n', 'locales');
type Tree = { [key: string]: string | Tree };
const catalogue = (lang: string): Tree => JSON.parse(readFileSync(join(LOCALES, lang, 'options.json'), 'utf8')) as Tree;

function at(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Every text the window shows of the records, by its catalogue key, with the record's English. */
function recordTexts(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, d] of Object.entries(CAPABILITY_DESCRIPTORS)) {
    out.set(`capability.${id}.label`, d.label);
    out.set(`capability.${id}.short`, d.short);
    out.set(`capability.${id}.hint`, d.hint);
    out.set(`capability.${id}.inputHelp`, d.inputHelp);
    out.set(`capability.${id}.step`, id);
  }
  const field = (id: string, f: OptionField): void => {
    out.set(`${id}.label`, f.label);
    out.set(`${id}.hint`, f.hint);
    if (f.placeholder !== undefined) out.set(`${id}.placeholder`, f.placeholder);
    for (const [value, name] of Object.entries(f.choices ?? {})) out.set(`${id}.choices.${choiceKey(value)}`, name);
  };
  for (const [id, o] of Object.entries(CAPABILITY_OPTIONS)) {
    const r: CapabilityOption = o;
    field(id, r.field);
    for (const c of r.step?.choices ?? []) out.set(`${id}.step.${c}`, c);
    if (r.step) out.set(`${id}.stepPlaceholder`, r.step.placeholder);
  }
  for (const [id, s] of Object.entries(BATCH_SETTINGS)) field(id, s.field);
  return out;
}

describe('the options catalogue', () => {
  const texts = recordTexts();

  it('holds every capability and option record, in the records own English', () => {
    const en = catalogue('en');
    const problems = [...texts].flatMap(([key, english]) => {
      const found = at(en, key);
      if (found === undefined) return [`en/options.json lacks ${key} ("${english}")`];
      return found === english ? [] : [`en/options.json ${key} is "${found}", the record says "${english}"`];
    });
    expect(problems).toEqual([]);
  });

  it('has each of them in German too', () => {
    const de = catalogue('de');
    expect([...texts.keys()].filter((key) => at(de, key) === undefined)).toEqual([]);
  });

  it('finds a record missing from the catalogue (the check itself can fail)', () => {
    expect(at(catalogue('en'), 'capability.transcribe.label')).toBe(CAPABILITY_DESCRIPTORS.transcribe.label);
    expect(at(catalogue('en'), 'no-such-record.label')).toBeUndefined();
  });
});
