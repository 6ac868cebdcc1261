// Capabilities and option records in the window's language: the records (shared/capabilities)
// hold the English, the `options` catalogue holds every language, keyed by capability or record
// id (test/unit/renderer/option-catalogue.test.ts keeps the two in step).
import type { BatchCapability } from '../../../shared/domain';
import { CAPABILITY_OPTIONS, BATCH_SETTINGS, type OptionField, type OptionName, type SettingName } from '../../../shared/capabilities/options';
import { MAIN_OPTION } from '../../../shared/capabilities/steps';
import type { OptionRule } from '../../../shared/capabilities/option-rules';
import { exists, t } from '../i18n';

export interface CapabilityWords {
  label: string;
  short: string;
  hint: string;
  inputHelp: string;
}

export function capabilityWords(c: BatchCapability): CapabilityWords {
  return {
    label: t(`options:capability.${c}.label`),
    short: t(`options:capability.${c}.short`),
    hint: t(`options:capability.${c}.hint`),
    inputHelp: t(`options:capability.${c}.inputHelp`),
  };
}

/** A choice's key in the catalogue: the empty value ("not set") has the key `none`. */
export function choiceKey(value: string): string {
  return value === '' ? 'none' : value;
}

export type RecordId = OptionName | SettingName;

function recordField(id: RecordId): OptionField {
  return id in CAPABILITY_OPTIONS ? CAPABILITY_OPTIONS[id as OptionName].field : BATCH_SETTINGS[id as SettingName].field;
}

/** The record a field belongs to (the screens hand over the record's own field object). */
export function recordIdOf(field: OptionField): RecordId | null {
  for (const [id, o] of Object.entries(CAPABILITY_OPTIONS)) if (o.field === field) return id as OptionName;
  for (const [id, s] of Object.entries(BATCH_SETTINGS)) if (s.field === field) return id as SettingName;
  return null;
}

/** The codes a several-choice value names ("cards, iban"; "all" names every one), in the record's order. */
export function severalOf(value: string, codes: readonly string[]): string[] {
  const words = new Set(value.split(',').map((w) => w.trim().toLowerCase()));
  return words.has('all') ? [...codes] : codes.filter((c) => words.has(c));
}

/** A record's field with its label, hint, placeholder and choice names in the window's language. */
export function fieldWords(id: RecordId): OptionField {
  const field = recordField(id);
  // Keys built from a record id: checked against the catalogue by option-catalogue.test.ts, not by the compiler.
  const word = (key: string): string => t(`options:${id}.${key}` as 'options:channel.label');
  return {
    ...field,
    label: word('label'),
    hint: word('hint'),
    ...(field.placeholder !== undefined ? { placeholder: word('placeholder') } : {}),
    ...(field.choices !== undefined ? { choices: Object.fromEntries(Object.keys(field.choices).map((v) => [v, word(`choices.${choiceKey(v)}`)])) } : {}),
  };
}

/** A pipeline step's main option value as the window names it ("summary"; typed values as typed). */
export function stepValueWord(option: OptionName, value: string): string {
  const key = `options:${option}.step.${value}`;
  return i18nHas(key) ? t(key as 'options:task.step.summary') : value;
}

/** The placeholder of a step's typed option ("voice (default alloy)"). */
export function stepPlaceholder(option: OptionName): string {
  const key = `options:${option}.stepPlaceholder`;
  return i18nHas(key) ? t(key as 'options:task.stepPlaceholder') : option;
}

/** "text (summary)", "crm (conversation)": a step's capability and main option. */
export function stepWords(s: { capability: BatchCapability } & { [N in OptionName]?: unknown }): string {
  const main = MAIN_OPTION[s.capability];
  const v = main === undefined ? undefined : s[main];
  const capability = t(`options:capability.${s.capability}.step`);
  return typeof v === 'string' && v !== '' && main !== undefined ? t('options:stepWithOption', { capability, option: stepValueWord(main, v) }) : capability;
}

/**
 * "Aufgabe: Zusammenfassung": a batch's stored option in the window's words, its name the field's
 * label (without "(optional)") and a closed choice by its name; typed values (instructions, labels,
 * a voice) as typed. An option the window has no words for keeps its own name.
 */
export function storedOptionWords(name: string, value: string): string {
  if (!i18nHas(`options:${name}.label`)) return `${name} ${value}`;
  const label = t(`options:${name}.label` as 'options:task.label').replace(/\s*\([^)]*\)$/, '');
  const step = `options:${name}.step.${value}`;
  const choice = `options:${name}.choices.${choiceKey(value)}`;
  // A step's noun ("Zusammenfassung") reads better in a header than the choice's verb.
  const shown = i18nHas(step) ? t(step as 'options:task.step.summary') : i18nHas(choice) ? t(choice as 'options:task.step.summary') : value;
  return `${label}: ${shown}`;
}

function i18nHas(key: string): boolean {
  return exists(key);
}

/**
 * A refused value's rule in the window's language (the record gives the code, the catalogue the
 * words); a message no rule states says only that the value is not valid, never English.
 */
export function ruleWords(r: { rule: OptionRule | null }, lng?: string): string {
  const opts = lng ? { lng } : {};
  return r.rule === null ? t('newBatch:errors.notValid', opts) : t(`options:rules.${r.rule}`, opts);
}
