// Batch options, one record each: the value's rule (a zod schema with the one sentence both faces
// show), how a batch stores it, its `batch create` flag, its field on the New batch screen and, for
// a capability's main option, what a pipeline step's `:value` offers. Derived from these records:
// the contract's batch request and pipeline step (contract.ts, steps.ts), the stored options, the
// flags and their parsing (cli/specs/batch-create.ts, cli/commands/batch-create.ts) and the New
// batch screen (renderer/src/new-batch). Which capability takes which option: its descriptor's
// `options` (catalog.ts).
import { z } from 'zod';
import { ChannelName } from '../channel-name';
import { parseEur } from '../money';
import { parseGap } from '../durations';
import { isCountryCode } from '../country-code';
import { QUIET_HOURS_RE } from '../quiet-hours-format';
import { PERSONAL_DATA_KINDS, PersonalDataKind, parsePersonalDataKinds } from '../privacy-kinds';
import { KeepDays, daysFromText } from '../retention-rules';
import { CRM_RECORDS, OPTION_RULES as RULES, TEXT_TASKS, ruleOfMessage, type OptionRule } from './option-rules';

export { TEXT_TASKS, CRM_RECORDS };
export type TextTask = (typeof TEXT_TASKS)[number];
export type CrmRecordKind = (typeof CRM_RECORDS)[number];

export const VOICE_NAME_RE = /^[A-Za-z0-9][\w .-]{0,63}$/;
export const VoiceName = z.string().regex(VOICE_NAME_RE, RULES.voiceName);
export const LABEL_RE = /^[\p{L}\p{N}][\p{L}\p{N} _-]{0,39}$/u;
export const ImageSize = z
  .string()
  .regex(/^\d{2,4}x\d{2,4}$/, RULES.sizeFormat)
  .refine((s) => s.split('x').every((n) => Number(n) >= 16 && Number(n) <= 1024), RULES.sizeSide);

/** How an option shows on the New batch screen. */
export interface OptionField {
  readonly label: string;
  /** Under the field until the value breaks a rule; then the rule's sentence shows there instead. */
  readonly hint: string;
  readonly placeholder?: string;
  /** A closed choice: each value's name in the select. Absent: typed text. */
  readonly choices?: Readonly<Record<string, string>>;
  /** With choices: any number of them, as checkboxes; the value is the checked ones' codes, separated by commas. */
  readonly several?: boolean;
  readonly multiline?: boolean;
  /** Checked even when left empty, once in play (labels, with classify). */
  readonly required?: boolean;
}

/** What an option's rule sees of the request besides the option itself. */
export type OptionContext = {
  readonly capability: string;
  readonly channel?: string | undefined;
  readonly task?: string | undefined;
  readonly labels?: unknown;
};

/** An option of a capability (the descriptor's `options` says which take it). */
export interface CapabilityOption<S extends z.ZodType = z.ZodType> {
  /** The value's rule, with its sentence: the contract checks it, both faces show its message. */
  readonly schema: S;
  /** From the typed text (flag value, field) to what the schema checks. Default: the trimmed text. */
  readonly fromText?: (text: string) => unknown;
  /** What a batch stores and reads back (leniently: a batch keeps the options it was made with). Absent: a column of its own. */
  readonly stored?: z.ZodType;
  /** `batch create --NAME VALUE`: the value's placeholder and the help line (after the capabilities that take it). */
  readonly flag: { readonly value: string; readonly help: string };
  readonly field: OptionField;
  /** As a step's `:value` (capability:value): the values it offers (null: typed text) and the one a new step starts with. */
  readonly step?: { readonly choices: readonly string[] | null; readonly initial: string; readonly placeholder: string };
  /** A rule beyond "the capability takes it" (voice on calls only, labels with classify): why it is refused, or null. */
  readonly rule?: (r: OptionContext) => string | null;
}

const REDACT_KIND_NAMES: Record<PersonalDataKind, string> = {
  cards: 'Card numbers',
  iban: 'IBANs',
  phones: 'Phone numbers',
  emails: 'Email addresses',
  'dates-of-birth': 'Dates of birth',
};
const TASK_NAMES: Record<TextTask, string> = { summary: 'Summarise', reply: 'Draft a reply', classify: 'Classify with labels', extract: 'Extract details' };
const RECORD_NAMES: Record<CrmRecordKind, string> = { contact: 'Contact', conversation: 'Conversation', event: 'Event' };

/** Tasks a step can have: classify also needs labels, which `capability:value` cannot carry. */
export const STEP_TASKS = TEXT_TASKS.filter((t) => t !== 'classify');

export const CAPABILITY_OPTIONS = {
  channel: {
    schema: ChannelName,
    fromText: (t) => t.trim().toLowerCase(),
    flag: { value: 'whatsapp|voice|email|NAME', help: 'where to send (default: the messaging_channel setting, whatsapp)' },
    field: { label: 'Channel', hint: 'The messaging app, a voice call or email.', placeholder: 'e.g. telegram' },
  },
  voice: {
    schema: VoiceName,
    stored: VoiceName,
    flag: { value: 'NAME', help: 'a voice published in the panel (voice calls, text to speech)' },
    field: {
      label: 'Voice (optional)',
      hint: 'A voice name from the panel; a "voice" column in the CSV wins for its row.',
      placeholder: "the API's default voice",
    },
    step: { choices: null, initial: '', placeholder: 'voice (default alloy)' },
    rule: (r) => (r.capability === 'channel' && r.channel !== 'voice' ? '--voice applies to --channel voice (calls), not to messages.' : null),
  },
  task: {
    schema: z.enum(TEXT_TASKS, { message: RULES.task }),
    stored: z.enum(TEXT_TASKS),
    flag: { value: TEXT_TASKS.join('|'), help: 'what the text model does with each input (default summary)' },
    field: { label: 'Task', hint: 'What the text model does with each input.', choices: TASK_NAMES },
    step: { choices: STEP_TASKS, initial: 'summary', placeholder: 'task' },
    rule: (r) => (r.task === 'classify' && r.labels === undefined ? '--task classify needs --labels a,b,c (the labels to choose from).' : null),
  },
  instructions: {
    schema: z.string(RULES.instructions).trim().min(1, RULES.instructions).max(4000, RULES.instructions),
    stored: z.string(),
    flag: { value: 'TEXT', help: 'extra instructions for the text model' },
    field: { label: 'Instructions (optional)', hint: 'Extra instructions for the text model.', multiline: true },
  },
  labels: {
    schema: z
      .array(z.string(RULES.label).trim().regex(LABEL_RE, RULES.label), RULES.labelsTwo)
      .min(2, RULES.labelsTwo)
      .max(50, RULES.labelsMany)
      .refine((l) => new Set(l.map((x) => x.toLowerCase())).size === l.length, RULES.labelsOnce),
    fromText: (t) =>
      t
        .split(',')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    stored: z.array(z.string()),
    flag: { value: 'a,b,c', help: 'with --task classify: the labels to choose from' },
    field: { label: 'Labels', hint: 'Separated by commas; each item gets one of them.', placeholder: 'billing, delivery, support', required: true },
    rule: (r) => (r.task !== 'classify' ? '--labels goes with --task classify.' : null),
  },
  size: {
    schema: ImageSize,
    stored: z.string(),
    flag: { value: 'WxH', help: 'image size in pixels, 16 to 1024 a side (default 512x512)' },
    field: { label: 'Size (optional)', hint: 'Width x height in pixels, 16 to 1024 a side, e.g. 512x512.' },
    step: { choices: null, initial: '', placeholder: 'size (default 512x512)' },
  },
  record: {
    schema: z.enum(CRM_RECORDS, { message: RULES.record }),
    stored: z.enum(CRM_RECORDS),
    flag: { value: CRM_RECORDS.join('|'), help: 'which CRM record each item writes (default contact)' },
    field: { label: 'Record', hint: 'Which CRM record each item writes.', choices: RECORD_NAMES },
    step: { choices: CRM_RECORDS, initial: 'conversation', placeholder: 'record' },
  },
} satisfies Record<string, CapabilityOption>;

type Options = typeof CAPABILITY_OPTIONS;
export type OptionName = keyof Options;
export const OPTION_NAMES = Object.keys(CAPABILITY_OPTIONS) as OptionName[];
/** An option's value once its schema passed. */
export type OptionValue<N extends OptionName> = z.output<Options[N]['schema']>;

/** One schema per option, shared by the request schema, the CLI and the New batch screen. */
export const OPTION_SCHEMAS = Object.fromEntries(OPTION_NAMES.map((n) => [n, CAPABILITY_OPTIONS[n].schema])) as { [N in OptionName]: Options[N]['schema'] };

/** The options as optional fields of a request (a batch's or a pipeline step's). */
export const OPTION_FIELDS = Object.fromEntries(OPTION_NAMES.map((n) => [n, CAPABILITY_OPTIONS[n].schema.optional()])) as {
  [N in OptionName]: z.ZodOptional<Options[N]['schema']>;
};

/** A value refused: the rule's English sentence and its code (null: a message no rule states). */
export type RuleRefusal = { ok: false; message: string; rule: OptionRule | null };

function refusal(message: string | undefined): RuleRefusal {
  return { ok: false, message: message ?? 'not valid', rule: message === undefined ? null : ruleOfMessage(message) };
}

/** An option's typed text checked by its schema: the value, or the schema's sentence. */
export function readOption<N extends OptionName>(name: N, text: string): { ok: true; value: OptionValue<N> } | RuleRefusal {
  const o: CapabilityOption = CAPABILITY_OPTIONS[name];
  const r = o.schema.safeParse(o.fromText ? o.fromText(text) : text.trim());
  return r.success ? { ok: true, value: r.data as OptionValue<N> } : refusal(r.error.issues[0]?.message);
}

// ---- Settings of a batch that every capability has (or the messaging ones): budget, sample, timing.

/** A setting of the batch: its contract field (with its rule and sentence), flag and field. */
export interface BatchSetting<S extends z.ZodType = z.ZodType> {
  /** The contract's field, absent or null included: its messages are the sentences both faces show. */
  readonly request: S;
  /** From the typed (non-empty) text to what `request` checks. */
  readonly fromText: (text: string) => unknown;
  /** `batch create --NAME VALUE`; `boolean`: `--NAME` alone, no value. */
  readonly flag: { readonly name: string; readonly value: string; readonly help: string; readonly boolean?: true };
  readonly field: OptionField;
  /** The capabilities it applies to (absent: every one), and the sentence when given to another. */
  readonly only?: { readonly capabilities: readonly string[]; readonly message: string };
  /**
   * Kept in the batch's stored options (read back leniently) and given to every later step of
   * its pipeline. Absent: a column of its own, or the first step's only.
   */
  readonly stored?: z.ZodType;
}

/** The one sentence of a budget rule, for the contract and both faces. */
export const BUDGET_RULE = RULES.budget;
const SAMPLE_RULE = RULES.sample;
const QUIET_RULE = RULES.quietHours;
const REDACT_RULE = RULES.redact;
const REDACT_STORED_RULE = RULES.redactStored;
const GAP_RULE = RULES.recipientGap;
/** Quiet hours that end where they start would hold every message or none: the engine refuses them, so the contract does. */
function aStretch(text: string): boolean {
  const m = QUIET_HOURS_RE.exec(text);
  return m === null || Number(m[1]) * 60 + Number(m[2]) !== Number(m[3]) * 60 + Number(m[4]);
}

/** Not a number where one was typed: the schema then gives its own sentence. */
const NOT_A_NUMBER = Number.NaN;

export const BATCH_SETTINGS = {
  /** Integer 1/10,000 EUR: sending pauses before the item that would cross it (every step together). */
  budget: {
    request: z.number(BUDGET_RULE).int(BUDGET_RULE).positive(BUDGET_RULE).nullable().default(null),
    fromText: (t) => parseEur(t) ?? NOT_A_NUMBER,
    flag: {
      name: 'budget',
      value: 'EUR',
      help: 'pause before spending more than this, in this batch and every step after it together (with --then: the whole pipeline)',
    },
    field: { label: 'Budget in EUR (optional)', hint: 'The batch pauses before an item would cross it.', placeholder: 'no budget' },
  },
  /** Send this many items, chosen across the input, first; then pause with the measured cost and the projection. */
  sample: {
    request: z.number(SAMPLE_RULE).int(SAMPLE_RULE).min(1, SAMPLE_RULE).max(10_000, SAMPLE_RULE).optional(),
    fromText: (t) => (/^\d+$/.test(t.trim()) ? Number(t.trim()) : NOT_A_NUMBER),
    flag: {
      name: 'sample',
      value: 'N',
      help: 'send N items chosen across the input first, then pause with the measured cost per item and the projected total (resume sends the rest)',
    },
    field: {
      label: 'Send a sample first (optional)',
      hint: 'This many items, chosen across the input, go first; then the batch pauses with their cost per item and the projected total. Resume sends the rest.',
      placeholder: 'all at once',
    },
  },
  /** Message batches: no message in the recipient's local quiet hours, "HH:MM-HH:MM" (e.g. 21:00-08:00). */
  quietHours: {
    request: z.string().regex(QUIET_HOURS_RE, QUIET_RULE).refine(aStretch, RULES.quietHoursStretch).optional(),
    fromText: (t) => t.trim(),
    flag: {
      name: 'quiet-hours',
      value: 'HH:MM-HH:MM',
      help: "channel: hold messages during these hours of the recipient's local time (timezone column, else the phone number's country), e.g. 21:00-08:00",
    },
    field: {
      label: 'Quiet hours (optional)',
      hint: "No message during these hours of the recipient's local time: a timezone column in the CSV, else the phone number's country (a country with several zones: daytime in all of them), else this computer's zone. Held messages wait and show when they go.",
      placeholder: 'e.g. 21:00-08:00',
    },
    only: { capabilities: ['channel'], message: 'quiet hours are for message batches (channel)' },
  },
  /** Message batches: the least time between two messages to one recipient (across every batch), ms. */
  recipientGapMs: {
    request: z
      .number(GAP_RULE)
      .int(GAP_RULE)
      .min(0, GAP_RULE)
      .max(30 * 86_400_000, GAP_RULE)
      .optional(),
    fromText: (t) => parseGap(t) ?? NOT_A_NUMBER,
    flag: {
      name: 'recipient-gap',
      value: 'DURATION',
      help: 'channel: never two messages to the same recipient within DURATION (10m, 2h, 1d), across every batch',
    },
    field: {
      label: 'Gap per recipient (optional)',
      hint: 'Never two messages to the same person within this time, across every batch.',
      placeholder: 'e.g. 10m, 2h, 1d',
    },
    only: { capabilities: ['channel'], message: 'a recipient gap is for message batches (channel)' },
  },
  /**
   * Message batches: numbers written without a country code ("0151 2345 0013") are read as this
   * country's. Never a guess from the locale (a message would reach a stranger abroad): the user
   * names the country for this batch, and each number is checked as one of that country's.
   */
  nationalNumbers: {
    request: z
      .string()
      .regex(/^[A-Z]{2}$/, RULES.nationalNumbers)
      .refine(isCountryCode, RULES.nationalNumbers)
      .optional(),
    fromText: (t) => t.trim().toUpperCase(),
    flag: {
      name: 'national-numbers',
      value: 'COUNTRY',
      help: 'channel: read phone numbers written without a country code as numbers of COUNTRY (two letters, e.g. DE); otherwise such rows are refused',
    },
    field: {
      label: 'Numbers without a country code (optional)',
      hint: 'The two-letter code of the country whose national numbers the CSV holds (e.g. DE reads 0151 2345 0013 as +49 151 2345 0013). Left empty, such rows are refused.',
      placeholder: 'refuse them',
    },
    only: { capabilities: ['channel'], message: 'reading national numbers is for message batches (channel)' },
  },
  /** Personal data replaced by typed placeholders in everything an item sends to a later step or to a text, embeddings, tts, image or CRM route. */
  redact: {
    request: z
      .array(z.enum(PERSONAL_DATA_KINDS, { message: REDACT_RULE }), REDACT_RULE)
      .min(1, REDACT_RULE)
      .optional(),
    fromText: (t) => {
      const r = parsePersonalDataKinds(t);
      return r.ok ? r.kinds : [t.trim()];
    },
    flag: {
      name: 'redact',
      value: 'KINDS',
      help: `replace personal data (${PERSONAL_DATA_KINDS.join(', ')}, or all; separated by commas) with [CARD], [IBAN], [PHONE], [EMAIL], [DOB] in what each item sends to a later step or to the text, embeddings, tts, image and crm routes (every step of a pipeline); the local copy stays complete unless --redact-stored. Limits: docs/privacy.md`,
    },
    // Checkboxes in the window (the codes are the stored value and the CLI's words, not the labels).
    field: {
      label: 'Redact personal data (optional)',
      hint: 'The kinds checked are replaced by a placeholder before anything is sent on. Applies to every step.',
      choices: REDACT_KIND_NAMES,
      several: true,
    },
    only: {
      capabilities: ['transcribe', 'ocr', 'tts', 'text', 'image', 'embeddings', 'crm'],
      message: 'redaction is for what an item sends on to a model or the CRM; a message goes to its recipient as written',
    },
    stored: z.array(PersonalDataKind),
  },
  /** With redact: transcripts and OCR text are stored for search and export redacted too. */
  redactStored: {
    request: z.boolean(REDACT_STORED_RULE).optional(),
    fromText: (t) => (t.trim() === 'yes' ? true : NOT_A_NUMBER),
    flag: {
      name: 'redact-stored',
      value: '',
      help: 'with --redact: transcripts and OCR text are redacted before they are stored for search and export too (otherwise the local copy stays complete)',
      boolean: true,
    },
    field: {
      label: 'Redact the stored copy too',
      hint: 'Transcripts and OCR text are redacted before they are stored for search and export; otherwise the local copy stays complete.',
      choices: { '': 'No, keep it complete', yes: 'Yes, store it redacted' },
    },
    only: { capabilities: ['transcribe', 'ocr'], message: 'redact-stored is for what transcribe and ocr store (transcripts, OCR text)' },
    stored: z.boolean(),
  },
  /** Retention (engine/retention): days after which the uploaded copies, outputs and exports Batchdesk wrote for the pipeline go. */
  keepFilesDays: {
    request: KeepDays.optional(),
    fromText: daysFromText,
    flag: {
      name: 'keep-files-days',
      value: 'N',
      help: "delete the uploaded copies, outputs and exports Batchdesk wrote in its data folder N days after the item finished; an item's source only once every step succeeded (default: the keep_files_days setting)",
    },
    field: {
      label: 'Delete files after (days, optional)',
      hint: 'Uploaded copies, outputs and exports in the data folder go this many days after an item finished; a source only once every step succeeded. Your own files stay.',
      placeholder: 'the default (keep)',
    },
  },
  /** Retention: days after which result text is dropped, the audit (what was sent, when, cost, key) kept. */
  keepResultsDays: {
    request: KeepDays.optional(),
    fromText: daysFromText,
    flag: {
      name: 'keep-results-days',
      value: 'N',
      help: 'drop result text (and its search entry and embedding) N days after the item finished; when, cost and idempotency key stay (default: the keep_results_days setting)',
    },
    field: {
      label: 'Drop results after (days, optional)',
      hint: 'Result text, its search entry and embedding go this many days after an item finished; when, what it cost and its key stay.',
      placeholder: 'the default (keep)',
    },
  },
} as const satisfies Record<string, BatchSetting>;

type Settings = typeof BATCH_SETTINGS;
export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(BATCH_SETTINGS) as SettingName[];

/** The settings as fields of the batch request. */
export const SETTING_FIELDS = Object.fromEntries(SETTING_NAMES.map((n) => [n, BATCH_SETTINGS[n].request])) as { [N in SettingName]: Settings[N]['request'] };

/** A setting's typed text checked by the contract's rule: the value, or the rule's sentence. */
export function readSetting<N extends SettingName>(
  name: N,
  text: string,
): { ok: true; value: Exclude<z.output<Settings[N]['request']>, null | undefined> } | RuleRefusal {
  const s: BatchSetting = BATCH_SETTINGS[name];
  const r = s.request.safeParse(s.fromText(text));
  if (r.success && r.data !== null && r.data !== undefined) return { ok: true, value: r.data as Exclude<z.output<Settings[N]['request']>, null | undefined> };
  return refusal(r.success ? undefined : r.error.issues[0]?.message);
}

// ---- What a batch stores: its capability options and the settings kept with every step.

type StoredName = { [N in OptionName]: Options[N] extends { stored: z.ZodType } ? N : never }[OptionName];
type StoredSchema<N extends StoredName> = Options[N] extends { stored: infer S extends z.ZodType } ? S : never;
export const STORED_OPTION_NAMES = OPTION_NAMES.filter((n): n is StoredName => 'stored' in CAPABILITY_OPTIONS[n]);

type StoredSettingName = { [N in SettingName]: Settings[N] extends { stored: z.ZodType } ? N : never }[SettingName];
type StoredSettingSchema<N extends StoredSettingName> = Settings[N] extends { stored: infer S extends z.ZodType } ? S : never;
/** Settings a batch keeps with its options and gives to every later step of its pipeline (redact, redactStored). */
export const STORED_SETTING_NAMES = SETTING_NAMES.filter((n): n is StoredSettingName => 'stored' in BATCH_SETTINGS[n]);

/** What a batch stores besides its channel (a column of its own) and its columns (budget, sample, timing). */
export const StoredOptions = z.object({
  ...(Object.fromEntries(STORED_OPTION_NAMES.map((n) => [n, (CAPABILITY_OPTIONS[n] as CapabilityOption).stored?.optional()])) as {
    [N in StoredName]: z.ZodOptional<StoredSchema<N>>;
  }),
  ...(Object.fromEntries(STORED_SETTING_NAMES.map((n) => [n, (BATCH_SETTINGS[n] as BatchSetting).stored?.optional()])) as {
    [N in StoredSettingName]: z.ZodOptional<StoredSettingSchema<N>>;
  }),
});
export type StoredOptions = z.infer<typeof StoredOptions>;
export type StoredSettings = Pick<StoredOptions, StoredSettingName>;

/** The settings a pipeline's later steps take from the step before (the same redaction all the way). */
export function pipelineSettings(o: StoredOptions): StoredSettings {
  const out: Record<string, unknown> = {};
  for (const n of STORED_SETTING_NAMES) if (o[n] !== undefined) out[n] = o[n];
  return out as StoredSettings;
}
