// The batch being prepared on the New batch screen: kept while the user visits other screens.
import { t } from '../i18n';
import { create } from 'zustand';
import type { BatchRequest } from '../../../shared/contract';
import type { BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import {
  BATCH_SETTINGS,
  CAPABILITY_OPTIONS,
  OPTION_NAMES,
  SETTING_NAMES,
  readOption,
  readSetting,
  type BatchSetting,
  type CapabilityOption,
  type OptionName,
  type SettingName,
} from '../../../shared/capabilities/options';
import type { RequestOptions } from '../../../shared/capabilities/request-options';
import { draftSteps, type DraftStep } from './draft-steps';
import { ruleWords } from '../format/option-words';
import { readDateTimeInput } from '../format/date-input';

export interface Source {
  /** What the engine reads: a path from a dialog or drop (Electron) or of an upload (browser). */
  path: string;
  label: string;
  /** Files inside it when known (browser uploads), null for a path the engine walks. */
  files: number | null;
}

export type { DraftStep } from './draft-steps';

/** 'default' is the messaging app of the settings (whatsapp unless changed); 'other' takes a name. */
export type ChannelChoice = 'default' | 'voice' | 'email' | 'other';

interface DraftState {
  capability: BatchCapability;
  sources: Source[];
  /** A follow-up batch: the batch whose results are its items (instead of sources). */
  from: string | null;
  /** Steps after this one ("Then"), each taking the results of the step before. */
  then: DraftStep[];
  tier: Tier;
  channelChoice: ChannelChoice;
  otherChannel: string;
  /** Each capability option as typed or chosen ('' or absent: none, or the capability's default for a choice). */
  options: Partial<Record<OptionName, string>>;
  name: string;
  /** Budget, sample, quiet hours, recipient gap as typed ('' or absent: none). */
  settings: Partial<Record<SettingName, string>>;
  /** The label of the stored key to send with ('' = the default key of the kind). */
  keyLabel: string;
  /** Include items an earlier batch already has (the preview says how many). */
  allowResend: boolean;
  /** Start later: a date and a time as typed, the locale's way ("01.12.2026", "09:00"; this computer's time); both '' = now. */
  atDate: string;
  atTime: string;
  set(patch: Partial<Omit<DraftState, 'set' | 'addSources' | 'removeSource' | 'reset'>>): void;
  addSources(sources: Source[]): void;
  removeSource(path: string): void;
  reset(): void;
}

const INITIAL = {
  capability: 'ocr' as BatchCapability,
  sources: [] as Source[],
  from: null as string | null,
  then: [] as DraftStep[],
  tier: 'standard' as Tier,
  channelChoice: 'default' as ChannelChoice,
  otherChannel: '',
  options: {} as Partial<Record<OptionName, string>>,
  name: '',
  settings: {} as Partial<Record<SettingName, string>>,
  keyLabel: '',
  allowResend: false,
  atDate: '',
  atTime: '',
};

export const useDraftStore = create<DraftState>()((set) => ({
  ...INITIAL,
  set: (patch) => set(patch),
  addSources: (more) =>
    set((s) => {
      const known = new Set(s.sources.map((x) => x.path));
      return { sources: [...s.sources, ...more.filter((x) => !known.has(x.path) && known.add(x.path))] };
    }),
  removeSource: (path) => set((s) => ({ sources: s.sources.filter((x) => x.path !== path) })),
  reset: () => set(INITIAL),
}));

export interface DraftRequest {
  request: BatchRequest | null;
  /** Field errors that keep the request from being valid: each the sentence of the rule it breaks. */
  errors: Partial<Record<OptionName | SettingName | 'name' | 'then' | 'at', string>>;
}

type DraftFields = Pick<
  DraftState,
  | 'capability'
  | 'sources'
  | 'from'
  | 'then'
  | 'tier'
  | 'channelChoice'
  | 'otherChannel'
  | 'options'
  | 'name'
  | 'settings'
  | 'keyLabel'
  | 'allowResend'
  | 'atDate'
  | 'atTime'
>;

/** An option's text on the screen: as typed, else (a closed choice) the capability's default or the first choice. */
export function optionText(d: Pick<DraftState, 'capability' | 'options'>, name: OptionName): string {
  const typed = d.options[name];
  const choices = (CAPABILITY_OPTIONS[name] as CapabilityOption).field.choices;
  if (choices === undefined || (typed !== undefined && typed in choices)) return typed ?? '';
  const fallback = describe(d.capability).defaults?.[name as keyof NonNullable<ReturnType<typeof describe>['defaults']>];
  return typeof fallback === 'string' ? fallback : (Object.keys(choices)[0] ?? '');
}

/** The channel the draft sends on (its choice, or the typed app name), when the capability takes one. */
function channelText(d: DraftFields, defaultChannel: string): string {
  return d.channelChoice === 'default' ? defaultChannel : d.channelChoice === 'other' ? d.otherChannel : d.channelChoice;
}

/**
 * The options in play for the draft, in record order, with their checked values: those the
 * capability takes whose rule holds for the options before them (a voice for calls, labels with
 * classify). The New batch screen shows exactly these fields.
 */
export function optionsInPlay(
  d: DraftFields,
  defaultChannel: string,
): { names: OptionName[]; given: RequestOptions; errors: Partial<Record<OptionName, string>> } {
  const takes = describe(d.capability).options;
  const given: RequestOptions = { capability: d.capability };
  const names: OptionName[] = [];
  const errors: Partial<Record<OptionName, string>> = {};
  for (const name of OPTION_NAMES) {
    const record: CapabilityOption = CAPABILITY_OPTIONS[name];
    if (!takes.includes(name) || (record.rule?.(given) ?? null) !== null) continue;
    names.push(name);
    const text = name === 'channel' ? channelText(d, defaultChannel) : optionText(d, name);
    if (text.trim() === '' && !record.field.required) continue;
    const r = readOption(name, text);
    if (r.ok) Object.assign(given, { [name]: r.value });
    else errors[name] = ruleWords(r);
  }
  return { names, given, errors };
}

/** Whether a batch setting applies to the draft (quiet hours: message batches; a sample: not a follow-up). */
export function settingApplies(d: Pick<DraftState, 'capability' | 'from'>, name: SettingName): boolean {
  const only = (BATCH_SETTINGS[name] as BatchSetting).only;
  if (only && !only.capabilities.includes(d.capability)) return false;
  return name !== 'sample' || d.from === null;
}

/** The BatchRequest the draft describes, or the reasons it is not one yet. */
export function draftRequest(d: DraftFields, defaultChannel: string, now: number = Date.now()): DraftRequest {
  const inPlay = optionsInPlay(d, defaultChannel);
  const errors: DraftRequest['errors'] = { ...inPlay.errors };
  const settings: Pick<BatchRequest, SettingName> = {};
  for (const name of SETTING_NAMES) {
    const text = d.settings[name] ?? '';
    if (!settingApplies(d, name) || text.trim() === '') continue;
    const r = readSetting(name, text);
    if (r.ok) Object.assign(settings, { [name]: r.value });
    else errors[name] = ruleWords(r);
  }
  let at: number | undefined;
  // This computer's local time, typed the locale's way.
  const when = readDateTimeInput(d.atDate, d.atTime);
  if (!when.ok) errors.at = when.message;
  else if (when.at !== null) {
    at = when.at;
    if (at <= now) errors.at = t('newBatch:errors.atPast');
  }
  const name = d.name.trim();
  if (name.length > 200) errors.name = t('newBatch:errors.nameLong');
  const steps = draftSteps(d.capability, d.then);
  if (!steps.ok) errors.then = t('newBatch:errors.step', { n: steps.n, problem: steps.problem });
  const then = steps.ok ? steps.steps : [];
  if ((d.from === null && d.sources.length === 0) || Object.keys(errors).length > 0) return { request: null, errors };
  // A gap of 0 is no gap: the request leaves it out.
  if (settings.recipientGapMs === 0) delete settings.recipientGapMs;
  const { capability: _, ...options } = inPlay.given;
  return {
    request: {
      capability: d.capability,
      ...(d.from !== null ? { from: d.from } : { paths: d.sources.map((s) => s.path) }),
      ...(then.length > 0 ? { then } : {}),
      tier: d.tier,
      ...(name !== '' ? { name } : {}),
      ...options,
      ...settings,
      ...(d.allowResend ? { allowResend: true } : {}),
      ...(d.keyLabel !== '' ? { key: d.keyLabel } : {}),
      ...(at !== undefined ? { at } : {}),
    },
    errors,
  };
}
