// The options of a batch request, as the batch stores them; and the rule that an option only
// goes with a capability that takes it (one check for the CLI, the window and the engine).
import { describe } from './catalog';
import {
  CAPABILITY_OPTIONS,
  OPTION_NAMES,
  STORED_OPTION_NAMES,
  STORED_SETTING_NAMES,
  type CapabilityOption,
  type OptionName,
  type OptionValue,
  type StoredOptions,
  type StoredSettings,
} from './options';
import { BATCH_CAPABILITIES, type BatchCapability } from '../domain';

export type RequestOptions = { capability: BatchCapability } & { [N in OptionName]?: OptionValue<N> | undefined } & {
  [N in keyof StoredSettings]?: StoredSettings[N] | undefined;
};

/**
 * The options a batch stores: those given whose rule holds (a voice given for messages is not
 * kept: among channels it applies to calls only), and the settings every step keeps (redaction).
 * The channel has a column of its own.
 */
export function optionsOf(r: RequestOptions): StoredOptions {
  const o: Record<string, unknown> = {};
  for (const name of STORED_OPTION_NAMES) {
    const rule = (CAPABILITY_OPTIONS[name] as CapabilityOption).rule;
    if (r[name] !== undefined && (rule?.(r) ?? null) === null) o[name] = r[name];
  }
  for (const name of STORED_SETTING_NAMES) if (r[name] !== undefined) o[name] = r[name];
  return o as StoredOptions;
}

/** Options given that the capability does not take, each with a sentence saying so. */
export function misplacedOptions(r: RequestOptions): { option: OptionName; message: string }[] {
  const takes = describe(r.capability).options;
  const out: { option: OptionName; message: string }[] = [];
  for (const name of OPTION_NAMES) {
    if (r[name] === undefined || takes.includes(name)) continue;
    out.push({ option: name, message: `--${name} applies to ${takersOf(name)} batches, not ${r.capability}.` });
  }
  // The rules beyond "the capability takes it", after those, for options the capability takes.
  for (const name of OPTION_NAMES) {
    const rule = (CAPABILITY_OPTIONS[name] as CapabilityOption).rule;
    const message = r[name] !== undefined && takes.includes(name) ? (rule?.(r) ?? null) : null;
    if (message !== null) out.push({ option: name, message });
  }
  return out;
}

/** The capabilities that take an option, in catalog order. */
export function takersOf(option: OptionName, joiner = ' or '): string {
  return BATCH_CAPABILITIES.filter((c) => describe(c).options.includes(option)).join(joiner);
}
