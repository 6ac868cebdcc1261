// The batch being prepared on the New batch screen: kept while the user visits other screens.
import { create } from 'zustand';
import type { BatchRequest } from '../../../shared/contract';
import { CHANNEL_NAME_RE } from '../../../shared/domain';
import type { BatchCapability, Tier } from '../../../shared/domain';
import { describe } from '../../../shared/capabilities/catalog';
import { OPTION_SCHEMAS, type CrmRecordKind, type TextTask } from '../../../shared/capabilities/options';
import { parseEur } from '../../../shared/money';
import { QUIET_HOURS_RE } from '../../../shared/quiet-hours-format';
import { parseGap } from '../../../shared/durations';
import { chainProblem, MAIN_OPTION, PipelineStep } from '../../../shared/capabilities/steps';

export interface Source {
  /** What the engine reads: a path from a dialog or drop (Electron) or of an upload (browser). */
  path: string;
  label: string;
  /** Files inside it when known (browser uploads), null for a path the engine walks. */
  files: number | null;
}

/** A step after the first: its capability and the value of its main option (task, record, voice, size), as typed. */
export interface DraftStep {
  capability: BatchCapability;
  option: string;
}

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
  voice: string;
  task: TextTask;
  instructions: string;
  /** Comma-separated classify labels, as typed. */
  labelsText: string;
  size: string;
  record: CrmRecordKind;
  name: string;
  budgetText: string;
  /** "Send N items first", as typed ('' = no sample). */
  sampleText: string;
  /** The label of the stored key to send with ('' = the default key of the kind). */
  keyLabel: string;
  /** Include items an earlier batch already has (the preview says how many). */
  allowResend: boolean;
  /** Start later: a datetime-local value ("2026-12-01T09:00", this computer's time); '' = now. */
  atText: string;
  /** Message batches: quiet hours as typed ("21:00-08:00"; '' = none) and the recipient gap ("10m"; '' = none). */
  quietHoursText: string;
  gapText: string;
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
  voice: '',
  task: 'summary' as TextTask,
  instructions: '',
  labelsText: '',
  size: '',
  record: 'contact' as CrmRecordKind,
  name: '',
  budgetText: '',
  sampleText: '',
  keyLabel: '',
  allowResend: false,
  atText: '',
  quietHoursText: '',
  gapText: '',
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
  /** Field errors that keep the request from being valid. */
  errors: { channel?: string; voice?: string; budget?: string; sample?: string; name?: string; instructions?: string; labels?: string; size?: string; then?: string; at?: string; quietHours?: string; gap?: string };
}

/** The first message of a failed option check. */
function problemOf(r: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return r.success ? undefined : (r.error?.issues[0]?.message ?? 'not valid');
}

/** The BatchRequest the draft describes, or the reasons it is not one yet. */
export function draftRequest(
  d: Pick<
    DraftState,
    'capability' | 'sources' | 'from' | 'then' | 'tier' | 'channelChoice' | 'otherChannel' | 'voice' | 'task' | 'instructions' | 'labelsText' | 'size' | 'record' | 'name' | 'budgetText' | 'sampleText' | 'keyLabel' | 'allowResend' | 'atText' | 'quietHoursText' | 'gapText'
  >,
  defaultChannel: string,
  now: number = Date.now(),
): DraftRequest {
  const errors: DraftRequest['errors'] = {};
  const takes = describe(d.capability).options;
  let channel: string | undefined;
  if (takes.includes('channel')) {
    channel = d.channelChoice === 'default' ? defaultChannel : d.channelChoice === 'other' ? d.otherChannel.trim().toLowerCase() : d.channelChoice;
    if (!CHANNEL_NAME_RE.test(channel)) {
      errors.channel = 'Enter the app name in lowercase letters, digits, "-" or "_" (2 to 32 characters, starting with a letter), e.g. telegram.';
    }
  }
  const voice = takes.includes('voice') && (d.capability !== 'channel' || channel === 'voice') ? d.voice.trim() : '';
  if (voice !== '') errors.voice = problemOf(OPTION_SCHEMAS.voice.safeParse(voice));
  const task = takes.includes('task') ? d.task : undefined;
  const instructions = takes.includes('instructions') ? d.instructions.trim() : '';
  if (instructions !== '') errors.instructions = problemOf(OPTION_SCHEMAS.instructions.safeParse(instructions));
  let labels: string[] | undefined;
  if (task === 'classify') {
    labels = d.labelsText.split(',').map((l) => l.trim()).filter((l) => l !== '');
    errors.labels = problemOf(OPTION_SCHEMAS.labels.safeParse(labels));
  }
  const size = takes.includes('size') ? d.size.trim() : '';
  if (size !== '') errors.size = problemOf(OPTION_SCHEMAS.size.safeParse(size));
  const record = takes.includes('record') ? d.record : undefined;
  let budget: number | null = null;
  if (d.budgetText.trim() !== '') {
    budget = parseEur(d.budgetText);
    if (budget === null) errors.budget = 'Enter an amount in EUR with at most four decimals, e.g. 25 or 12.50.';
    else if (budget === 0) errors.budget = 'A budget of €0 would stop the batch before the first item; leave it empty for no budget.';
  }
  let sample: number | undefined;
  if (d.from === null && d.sampleText.trim() !== '') {
    sample = Number(d.sampleText.trim());
    if (!/^\d+$/.test(d.sampleText.trim()) || sample < 1 || sample > 10_000) errors.sample = 'Enter a number of items from 1 to 10000, or leave it empty to send everything at once.';
  }
  let at: number | undefined;
  if (d.atText.trim() !== '') {
    // datetime-local gives this computer's local time without a zone: Date reads it as local.
    at = new Date(d.atText.trim()).getTime();
    if (!Number.isFinite(at)) errors.at = 'Enter a date and time, or leave it empty to start now.';
    else if (at <= now) errors.at = 'This time is in the past; give a later one, or leave it empty to start now.';
  }
  let quietHours: string | undefined;
  let recipientGapMs: number | undefined;
  if (d.capability === 'channel') {
    if (d.quietHoursText.trim() !== '') {
      quietHours = d.quietHoursText.trim();
      if (!QUIET_HOURS_RE.test(quietHours)) errors.quietHours = 'Write two times HH:MM-HH:MM, e.g. 21:00-08:00, or leave it empty.';
    }
    if (d.gapText.trim() !== '') {
      const g = parseGap(d.gapText);
      if (g === null || g > 30 * 86_400_000) errors.gap = 'Write a duration such as 10m, 2h or 1d (at most 30d), or leave it empty.';
      else recipientGapMs = g;
    }
  }
  const name = d.name.trim();
  if (name.length > 200) errors.name = 'Keep the name under 200 characters.';
  const then: PipelineStep[] = [];
  let prev = d.capability;
  for (const [i, step] of d.then.entries()) {
    const main = MAIN_OPTION[step.capability];
    const raw: Record<string, unknown> = { capability: step.capability };
    if (main !== undefined && step.option.trim() !== '') raw[main] = step.option.trim();
    const parsed = PipelineStep.safeParse(raw);
    const problem = chainProblem(prev, step.capability) ?? (parsed.success ? null : (parsed.error.issues[0]?.message ?? 'not valid'));
    if (problem !== null || !parsed.success) {
      errors.then = `Step ${i + 2}: ${problem ?? 'not valid'}`;
      break;
    }
    then.push(parsed.data);
    prev = step.capability;
  }
  for (const k of Object.keys(errors) as (keyof DraftRequest['errors'])[]) if (errors[k] === undefined) delete errors[k];
  if ((d.from === null && d.sources.length === 0) || Object.keys(errors).length > 0) return { request: null, errors };
  return {
    request: {
      capability: d.capability,
      ...(d.from !== null ? { from: d.from } : { paths: d.sources.map((s) => s.path) }),
      ...(then.length > 0 ? { then } : {}),
      tier: d.tier,
      budget,
      ...(name !== '' ? { name } : {}),
      ...(channel !== undefined ? { channel } : {}),
      ...(voice !== '' ? { voice } : {}),
      ...(task !== undefined ? { task } : {}),
      ...(instructions !== '' ? { instructions } : {}),
      ...(labels !== undefined ? { labels } : {}),
      ...(size !== '' ? { size } : {}),
      ...(record !== undefined ? { record } : {}),
      ...(d.allowResend ? { allowResend: true } : {}),
      ...(sample !== undefined ? { sample } : {}),
      ...(d.keyLabel !== '' ? { key: d.keyLabel } : {}),
      ...(at !== undefined ? { at } : {}),
      ...(quietHours !== undefined ? { quietHours } : {}),
      ...(recipientGapMs !== undefined && recipientGapMs > 0 ? { recipientGapMs } : {}),
    },
    errors,
  };
}
