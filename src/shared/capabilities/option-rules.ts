// The rules of batch options and settings, one code each with its one English sentence. The
// option records' schemas (options.ts) give these sentences as their messages, so the contract
// refuses with them and the command line prints them; the window says the code in its language
// (the `options` catalogue's `rules`, checked for every code by a unit test).
import { CHANNEL_RULE } from '../channel-name';
import { PERSONAL_DATA_KINDS } from '../privacy-kinds';
import { KEEP_DAYS_RULE } from '../retention-rules';

export const TEXT_TASKS = ['summary', 'reply', 'classify', 'extract'] as const;
export const CRM_RECORDS = ['contact', 'conversation', 'event'] as const;

export const OPTION_RULES = {
  channel: CHANNEL_RULE,
  voiceName: 'a voice name is letters, digits, spaces, ".", "_" or "-" (as published in the panel)',
  task: `one of ${TEXT_TASKS.join(', ')}`,
  instructions: 'instructions are 1 to 4000 characters',
  label: 'a label is 1 to 40 letters, digits, spaces, "_" or "-"',
  labelsTwo: 'classify needs at least two labels',
  labelsMany: 'at most 50 labels',
  labelsOnce: 'each label once',
  sizeFormat: 'WIDTHxHEIGHT, e.g. 512x512',
  sizeSide: 'each side from 16 to 1024 pixels',
  record: `one of ${CRM_RECORDS.join(', ')}`,
  budget: 'a budget is an amount in EUR above 0, e.g. 25 or 12.50, at most four decimals; without one there is no limit',
  sample: 'a sample is a number of items from 1 to 10000; without one everything goes at once',
  quietHours: "quiet hours are two times HH:MM-HH:MM; write them like 21:00-08:00 (no messages from 9 pm to 8 am in the recipient's local time)",
  quietHoursStretch: 'quiet hours that start and end at the same time are no stretch: give one such as 21:00-08:00',
  recipientGap: 'a recipient gap is a duration such as 10m, 2h or 1d, at most 30d',
  redact: `redact takes kinds of personal data separated by commas: ${PERSONAL_DATA_KINDS.join(', ')}, or all`,
  redactStored: 'redact-stored is yes or left out',
  keepDays: KEEP_DAYS_RULE,
  nationalNumbers: 'a country for numbers written without a country code is its two-letter code, such as DE, AT or CH',
} as const;

export type OptionRule = keyof typeof OPTION_RULES;
export const OPTION_RULE_CODES = Object.keys(OPTION_RULES) as OptionRule[];

const BY_SENTENCE = new Map<string, OptionRule>(OPTION_RULE_CODES.map((c) => [OPTION_RULES[c], c]));

/** The rule a schema's message states, or null (a message no record gives: a bug the unit test catches). */
export function ruleOfMessage(message: string): OptionRule | null {
  return BY_SENTENCE.get(message) ?? null;
}
