import { parse } from '../parse';
import { configSpec } from '../specs/config';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine, openEngineToRead } from '../context';
import { onTeamStore, openCliDesk } from '../desk';
import {
  DEFAULT_MESSAGING_CHANNEL,
  MESSAGING_CHANNEL_MESSAGE,
  MESSAGING_CHANNEL_RE,
  NUMERIC_SETTINGS,
  numericSettingByKey,
  parseNumericSetting,
  readNumericSetting,
} from '../../../shared/settings-rules';
import { PHONE_COUNTRY_SETTING, phoneCountryWords } from '../../../shared/phone-country';
import { RETENTION_SETTINGS, RETENTION_SETTING_KEYS, parseRetentionDefault, type RetentionSettingKey } from '../../../shared/retention-rules';

/** Settings by the name `config` takes; bounds, defaults and words from the shared rules. */
const NAMES = [...Object.values(NUMERIC_SETTINGS).map((r) => r.key), 'messaging_channel', PHONE_COUNTRY_SETTING, ...RETENTION_SETTING_KEYS] as const;

function isRetentionKey(key: string): key is RetentionSettingKey {
  return (RETENTION_SETTING_KEYS as readonly string[]).includes(key);
}

/** `config list` with a team's store: its default retention rule, kept in the store for every worker and desk. */
async function listTeamDefaults(values: { store?: string; 'data-dir'?: string }, io: Io): Promise<void> {
  const desk = await openCliDesk(values, io, { read: true });
  try {
    const d = await desk.retention.defaults();
    io.stdout.write(`The team's default retention rule, in ${desk.description} (for every worker and desk):\n`);
    for (const key of RETENTION_SETTING_KEYS) {
      const days = key === 'keep_files_days' ? d.keepFilesDays : d.keepResultsDays;
      io.stdout.write(`${key.padEnd(18)} ${(days === null ? '0 (kept)' : String(days)).padEnd(14)} ${RETENTION_SETTINGS[key]}\n`);
    }
  } finally {
    await desk.close();
  }
}

/** `config set keep_*_days N` on the chosen desk: the data folder's default, or with a team's store the team's. */
async function setRetentionDefault(values: { store?: string; 'data-dir'?: string }, io: Io, key: RetentionSettingKey, value: string): Promise<void> {
  const checked = parseRetentionDefault(value);
  if (!checked.ok) throw new UsageError(`${key}: ${checked.message}`);
  const desk = await openCliDesk(values, io);
  try {
    await desk.retention.setDefault(key, checked.value);
    if (desk.storeFlag === '') io.stdout.write(`${key} = ${value} (applies at once, also to a run in progress)\n`);
    else
      io.stdout.write(
        io.carry(
          `${key} = ${checked.value === 0 ? '0 (kept)' : checked.value}: the team's default in ${desk.description}, for every worker and desk. ` +
            `It holds for the team's batches without a rule of their own, those made before it too, from the next retention run ` +
            `(\`batchdesk retention run --dry-run${desk.storeFlag}\` shows what would go).\n`,
        ),
      );
  } finally {
    await desk.close();
  }
}

export async function cmdConfig(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, configSpec.options);
  if (sub === 'set') {
    const [key, value] = positionals;
    if (key && value !== undefined && isRetentionKey(key)) {
      await setRetentionDefault(values, io, key, value);
      return EXIT.ok;
    }
    // The other settings are this computer's (its requests, its keys): a team's store keeps none of them.
    if (key && values.store !== undefined)
      throw new UsageError(
        `${key} is this computer's setting, kept in its data folder; a team's store keeps only keep_files_days and keep_results_days. Leave --store out to set ${key}.`,
      );
  }
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
      const phone = engine.phoneCountry();
      io.stdout.write(
        `${PHONE_COUNTRY_SETTING.padEnd(18)} ${(phone.country !== null && phone.from === 'setting' ? phone.country : 'auto').padEnd(14)} country of phone numbers without a country code, for redaction: ${phoneCountryWords(phone)}\n`,
      );
      if (onTeamStore(values, io)) await listTeamDefaults(values, io);
      else
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
      if (key === PHONE_COUNTRY_SETTING) {
        const checked = engine.setPhoneCountry(value);
        if (!checked.ok) throw new UsageError(checked.message);
        io.stdout.write(
          `${key} = ${checked.value.country !== null && checked.value.from === 'setting' ? checked.value.country : 'auto'}. ${phoneCountryWords(checked.value)}\n`,
        );
        return EXIT.ok;
      }
      if (rule) {
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
