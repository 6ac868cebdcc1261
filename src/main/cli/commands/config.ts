import { parse } from '../parse';
import { configSpec } from '../specs/config';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine, openEngineToRead } from '../context';
import {
  DEFAULT_MESSAGING_CHANNEL,
  MESSAGING_CHANNEL_MESSAGE,
  MESSAGING_CHANNEL_RE,
  NUMERIC_SETTINGS,
  numericSettingByKey,
  parseNumericSetting,
  readNumericSetting,
} from '../../../shared/settings-rules';
import { RETENTION_SETTINGS, RETENTION_SETTING_KEYS, parseRetentionDefault, type RetentionSettingKey } from '../../../shared/retention-rules';

/** Settings by the name `config` takes; bounds, defaults and words from the shared rules. */
const NAMES = [...Object.values(NUMERIC_SETTINGS).map((r) => r.key), 'messaging_channel', ...RETENTION_SETTING_KEYS] as const;

function isRetentionKey(key: string): key is RetentionSettingKey {
  return (RETENTION_SETTING_KEYS as readonly string[]).includes(key);
}

export async function cmdConfig(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, configSpec.options);
  const engine = (sub === 'list' ? openEngineToRead : openEngine)(globalOptions(values, io.env), io);
  try {
    if (sub === 'list') {
      for (const r of Object.values(NUMERIC_SETTINGS)) {
        const stored = engine.settings.get(r.key);
        const shown = stored === null ? `${r.default} (default)` : String(readNumericSetting(r, stored));
        io.stdout.write(`${r.key.padEnd(18)} ${shown.padEnd(14)} ${r.help} (${r.min}-${r.max})\n`);
      }
      const channel = engine.settings.get('messaging_channel');
      io.stdout.write(
        `${'messaging_channel'.padEnd(18)} ${(channel ?? `${DEFAULT_MESSAGING_CHANNEL} (default)`).padEnd(14)} path name of the messaging-app channel\n`,
      );
      for (const key of RETENTION_SETTING_KEYS) {
        const stored = engine.settings.get(key);
        io.stdout.write(`${key.padEnd(18)} ${(stored === null || stored === '0' ? '0 (kept)' : stored).padEnd(14)} ${RETENTION_SETTINGS[key]}\n`);
      }
      return EXIT.ok;
    }
    if (sub === 'set') {
      const [key, value] = positionals;
      if (!key || !(NAMES as readonly string[]).includes(key)) throw new UsageError(`Settings: ${NAMES.join(', ')}.`);
      if (value === undefined) throw new UsageError(`config set ${key} needs a value.`);
      const rule = numericSettingByKey(key);
      if (isRetentionKey(key)) {
        const checked = parseRetentionDefault(value);
        if (!checked.ok) throw new UsageError(`${key}: ${checked.message}`);
        engine.settings.set(key, String(checked.value));
      } else if (rule) {
        const checked = parseNumericSetting(rule, value);
        if (!checked.ok) throw new UsageError(checked.message);
        engine.settings.set(key, String(checked.value));
      } else {
        if (!MESSAGING_CHANNEL_RE.test(value)) throw new UsageError(MESSAGING_CHANNEL_MESSAGE);
        engine.settings.set(key, value);
      }
      // A running engine (the window, `batchdesk run`) reads settings on every pass.
      io.stdout.write(`${key} = ${value} (applies at once, also to a run in progress)\n`);
      return EXIT.ok;
    }
    throw new UsageError('config takes list or set.');
  } finally {
    engine.close();
  }
}
