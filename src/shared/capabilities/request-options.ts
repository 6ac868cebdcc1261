// The options of a batch request, as the batch stores them; and the rule that an option only
// goes with a capability that takes it (one check for the CLI, the window and the engine).
import { describe } from './catalog';
import { OPTION_HELP, OPTION_NAMES, type OptionName, type StoredOptions } from './options';
import { BATCH_CAPABILITIES, type BatchCapability } from '../domain';

export interface RequestOptions {
  capability: BatchCapability;
  channel?: string | undefined;
  voice?: string | undefined;
  task?: StoredOptions['task'];
  instructions?: string | undefined;
  labels?: string[] | undefined;
  size?: string | undefined;
  record?: StoredOptions['record'];
}

export function optionsOf(r: RequestOptions): StoredOptions {
  const o: StoredOptions = {};
  // Voice applies to voice calls only among channels.
  if (r.voice !== undefined && (r.capability !== 'channel' || r.channel === 'voice')) o.voice = r.voice;
  if (r.task !== undefined) o.task = r.task;
  if (r.instructions !== undefined) o.instructions = r.instructions;
  if (r.labels !== undefined) o.labels = r.labels;
  if (r.size !== undefined) o.size = r.size;
  if (r.record !== undefined) o.record = r.record;
  return o;
}

/** Options given that the capability does not take, each with a sentence saying so. */
export function misplacedOptions(r: RequestOptions): { option: OptionName; message: string }[] {
  const takes = describe(r.capability).options;
  const out: { option: OptionName; message: string }[] = [];
  for (const name of OPTION_NAMES) {
    if (r[name] === undefined || takes.includes(name)) continue;
    out.push({ option: name, message: `--${name} applies to ${takersOf(name)} batches, not ${r.capability}.` });
  }
  if (r.capability === 'channel' && r.voice !== undefined && r.channel !== 'voice') out.push({ option: 'voice', message: '--voice applies to --channel voice (calls), not to messages.' });
  if (r.labels !== undefined && r.task !== 'classify') out.push({ option: 'labels', message: '--labels goes with --task classify.' });
  if (r.task === 'classify' && r.labels === undefined) out.push({ option: 'task', message: '--task classify needs --labels a,b,c (the labels to choose from).' });
  return out;
}

/** The capabilities that take an option, in catalog order. */
export function takersOf(option: OptionName, joiner = ' or '): string {
  return BATCH_CAPABILITIES.filter((c) => describe(c).options.includes(option)).join(joiner);
}
