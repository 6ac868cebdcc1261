import { parse } from '../parse';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine } from '../context';
import { CHANNEL_NAME_RE } from '../../engine/batch-input';

const SETTINGS: Record<string, { check: (v: string) => boolean; help: string }> = {
  concurrency: { check: (v) => /^[1-9]\d{0,2}$/.test(v), help: 'requests in flight per key (1-999, default 4)' },
  rpm: { check: (v) => /^\d{1,6}$/.test(v), help: 'requests per minute per key, the key\'s request limit (0 = none)' },
  max_attempts: { check: (v) => /^[1-9]\d?$/.test(v), help: 'attempts before an item fails (1-99, default 8)' },
  messaging_channel: { check: (v) => CHANNEL_NAME_RE.test(v), help: 'path name of the messaging-app channel (default whatsapp)' },
};

export async function cmdConfig(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, {});
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    if (sub === 'list') {
      for (const [k, s] of Object.entries(SETTINGS)) io.stdout.write(`${k.padEnd(18)} ${(engine.settings.get(k) ?? '(default)').padEnd(10)} ${s.help}\n`);
      return EXIT.ok;
    }
    if (sub === 'set') {
      const [key, value] = positionals;
      const spec = key ? SETTINGS[key] : undefined;
      if (!key || !spec) throw new UsageError(`Settings: ${Object.keys(SETTINGS).join(', ')}.`);
      if (value === undefined || !spec.check(value)) throw new UsageError(`${key}: ${spec.help}.`);
      engine.settings.set(key, value);
      io.stdout.write(`${key} = ${value}\n`);
      return EXIT.ok;
    }
    throw new UsageError('config takes list or set.');
  } finally {
    engine.close();
  }
}
