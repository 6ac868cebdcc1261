import { defineCommand } from '../command-spec';
import { STORE_OPTION } from './store-option';
import {
  BATCH_SETTINGS,
  CAPABILITY_OPTIONS,
  OPTION_NAMES,
  SETTING_NAMES,
  type BatchSetting,
  type OptionName,
  type SettingName,
} from '../../../shared/capabilities/options';
import { BATCH_CAPABILITIES } from '../../../shared/domain';
import { takersOf } from '../../../shared/capabilities/request-options';
import { describe } from '../../../shared/capabilities/catalog';
import { MAIN_OPTION, stepChoices } from '../../../shared/capabilities/steps';

type StringFlag = { readonly type: 'string'; readonly value: string; readonly help: string };
type BooleanFlag = { readonly type: 'boolean'; readonly help: string };
type Flags = (typeof BATCH_SETTINGS)[SettingName]['flag'];
export type SettingFlagName = Flags['name'];
/** A setting's flag with a value, or (`boolean`) alone. */
type SettingFlag<F extends SettingFlagName> = Extract<Flags, { name: F }> extends { boolean: true } ? BooleanFlag : StringFlag;

/** Every capability option as a flag: its value, and its help after the capabilities that take it. */
export const OPTION_FLAGS = Object.fromEntries(
  OPTION_NAMES.map((n) => [n, { type: 'string', value: CAPABILITY_OPTIONS[n].flag.value, help: `${takersOf(n, ', ')}: ${CAPABILITY_OPTIONS[n].flag.help}` }]),
) as { readonly [N in OptionName]: StringFlag };

/** Every batch setting (budget, sample, quiet hours, recipient gap, redaction) as a flag. */
export const SETTING_FLAGS = Object.fromEntries(
  SETTING_NAMES.map((n) => {
    const flag: BatchSetting['flag'] = BATCH_SETTINGS[n].flag;
    return [flag.name, flag.boolean ? { type: 'boolean', help: flag.help } : { type: 'string', value: flag.value, help: flag.help }];
  }),
) as {
  readonly [F in SettingFlagName]: SettingFlag<F>;
};

/** `text:summary|reply|extract, ..., embeddings`: each step a capability can be, from its main option's record. */
function stepForms(): string {
  return BATCH_CAPABILITIES.filter((c) => describe(c).takesFrom)
    .map((c) => {
      const main = MAIN_OPTION[c];
      if (main === undefined) return c;
      const { choices } = stepChoices(main);
      return `${c}:${choices ? choices.join('|') : CAPABILITY_OPTIONS[main].flag.value}`;
    })
    .join(', ');
}

export const batchCreateSpec = defineCommand({
  name: 'batch create',
  summary: 'check files or a CSV and create a batch of the valid items (nothing is sent until `run`)',
  usage: [
    `<${BATCH_CAPABILITIES.join('|')}> <paths...> [options]`,
    `<${BATCH_CAPABILITIES.filter((c) => describe(c).takesFrom).join('|')}> --from BATCH [options]`,
  ],
  options: {
    ...STORE_OPTION,
    tier: { type: 'string', value: 'basic|standard|superior', help: 'price and quality tier (default standard)' },
    ...OPTION_FLAGS,
    from: {
      type: 'string',
      value: 'BATCH',
      help: "a follow-up batch: its items are BATCH's succeeded results (transcripts, OCR text, text results), now and as they come",
    },
    then: {
      type: 'string',
      multiple: true,
      value: 'STEP',
      help: `repeatable: a next step taking the results of the step before, as capability[:option] (${stepForms()})`,
    },
    name: { type: 'string', value: 'TEXT', help: 'label for the batch (default: what you gave and how many items, "Calls 26 Nov (300 recordings)")' },
    ...SETTING_FLAGS,
    key: {
      type: 'string',
      value: 'LABEL',
      help: "the stored key to send with (a client's key, `keys list`); its request limit applies, its client is billed in `report --by client`. Default: the default key of the kind",
    },
    at: {
      type: 'string',
      value: 'TIME',
      help: 'start the batch by itself at TIME: "2026-12-01 09:00" (this computer\'s time), "2026-12-01 09:00 Europe/Berlin" or ISO with an offset; nothing is sent before (change it with `batchdesk schedule`). Asks after the estimate (--yes in a script)',
    },
    yes: { type: 'boolean', help: 'with --at: schedule it without asking after the estimate (needed where no one can answer: a script, a pipe)' },
    'allow-resend': {
      type: 'boolean',
      help: 'include items an unfinished or succeeded batch already has (same message to the same recipient, same file, same request)',
    },
    json: { type: 'boolean', help: 'print the batch and every problem as JSON' },
  },
  examples: [
    { command: 'batchdesk batch create transcribe ~/calls/october', note: 'files and folders, recursive' },
    { command: 'batchdesk batch create ocr ~/scans --tier superior --budget 25' },
    { command: 'batchdesk batch create channel customers.csv --channel whatsapp --name "October notice"', note: 'CSV columns to, text (subject for email)' },
    { command: 'batchdesk batch create tts lines.txt --voice alloy', note: 'one item per line; audio saved to <data folder>/outputs/<batch id>/' },
    { command: 'batchdesk batch create text tickets.csv --task classify --labels billing,delivery,other', note: 'CSV column input' },
    { command: 'batchdesk batch create image prompts.txt --size 512x512' },
    { command: 'batchdesk batch create embeddings notes.txt' },
    { command: 'batchdesk batch create crm contacts.csv --record contact', note: 'each row one record, its columns the fields' },
    {
      command: 'batchdesk batch create transcribe calls/ --then text:summary --then crm:conversation --budget 20',
      note: 'a pipeline: each transcript summarised, each summary logged',
    },
    { command: 'batchdesk batch create text --from b1a2b3 --task summary', note: 'a follow-up of an existing batch, linked: later results flow in too' },
    {
      command: 'batchdesk batch create text --from b1a2b3 --task summary --store postgresql://team@db/batchdesk',
      note: "a follow-up of one of the team's batches, made in the shared store",
    },
    {
      command: 'batchdesk batch create transcribe ~/calls/october --sample 20',
      note: '20 recordings first, then a pause with the measured cost and the projection',
    },
    { command: 'batchdesk batch create ocr ~/clients/acme/invoices --key acme', note: "sent with ACME's own key, at its limit, billed to ACME" },
    {
      command: 'batchdesk batch create channel reminders.csv --at "2026-12-01 09:00" --quiet-hours 21:00-08:00 --recipient-gap 1h --yes',
      note: 'starts by itself at 9:00; no message at night where the recipient is',
    },
  ],
  notes: [
    'Inputs: transcribe and ocr take files and folders; channel a message CSV; tts, text, image and embeddings a CSV',
    '(its column: tts text, text input, image prompt, embeddings input) or a TXT file with one item per line; crm a CSV',
    'whose columns are the record fields.',
    'Prints each problem with its file or CSV row, the cause and what to do, then the cost estimate.',
    'With --at the batch is sent at that time with no one asked again, so it asks after the estimate whether to schedule',
    'it (no: it is created unscheduled, waiting for `run`); where no one can answer, nothing is created without --yes.',
    'Items already in an unfinished or succeeded batch are left out, naming that batch, unless --allow-resend.',
    'Pipelines: a step gets each item of the step before as it succeeds (a failed item never goes on); run, pause,',
    'resume and cancel act on every step.',
  ],
});
