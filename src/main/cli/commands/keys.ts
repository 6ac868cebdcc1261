// keys add | list | remove: secrets go to the OS keychain, metadata to the data folder.
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { keysAddSpec, keysListSpec, keysRemoveSpec, keysSetSpec } from '../specs/keys';
import type { Engine } from '../../engine/engine';
import { ENV_VAR, last4, type KeyInfo } from '../../engine/secrets/key-manager';
import { NUMERIC_SETTINGS } from '../../../shared/settings-rules';
import { globalOptions, openEngine, openEngineToRead } from '../context';
import { readSecret } from '../read-secret';

function keyKind(value: string | undefined): 'api' | 'channel' | undefined {
  if (value === undefined || value === 'api' || value === 'channel') return value;
  throw new UsageError(`--kind must be api or channel (got "${value}").`);
}

/** A key's own request limit: 1 to the general bound; `default` (on `keys set`) clears it. */
function keyRpm(value: string, allowDefault: boolean): number | null {
  if (allowDefault && value === 'default') return null;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > NUMERIC_SETTINGS.rpm.max) {
    throw new UsageError(
      `--rpm must be the key's request limit per minute, a whole number from 1 to ${NUMERIC_SETTINGS.rpm.max}${allowDefault ? ', or default (the general setting)' : ''} (got "${value}").`,
    );
  }
  return n;
}

/** The one stored key a label names (with --kind when an api and a channel key share it). */
function oneKey(engine: Engine, label: string, kind: 'api' | 'channel' | undefined): KeyInfo {
  const matches = engine.keys.find(label).filter((k) => !kind || k.kind === kind);
  const key = matches[0];
  if (!key) throw new UsageError(`No stored key "${label}". \`batchdesk keys list\` shows them.`);
  if (matches.length > 1) throw new UsageError(`Both an api and a channel key are labelled "${label}"; add --kind.`);
  return key;
}

function describeKey(k: KeyInfo): string {
  return `${k.active ? '*' : ' '} ${k.kind.padEnd(7)} ${k.label.padEnd(20)} …${k.last4}  client ${k.client ?? '-'}  limit ${k.rpm === null ? 'general setting' : `${k.rpm}/min`}  ${k.base_url ?? '(default API)'}`;
}

export const keysAddCommand = bindCommand(keysAddSpec, async ({ values }, io) => {
  const kind = keyKind(values.kind);
  if (!kind) throw new UsageError('keys add needs --kind api or --kind channel.');
  if (!values.label) throw new UsageError('keys add needs --label NAME (how the key is shown; the key itself is never shown).');
  const rpm = values.rpm === undefined ? undefined : keyRpm(values.rpm, false);
  const engine = openEngine(globalOptions(values, io.env), io);
  try {
    const secret = values['from-env']
      ? (io.env[values['from-env']] ?? '')
      : await readSecret(io.stdin, io.stderr, `Paste the ${kind} key for "${values.label}" (input hidden): `);
    if (!secret) throw new UsageError(values['from-env'] ? `Environment variable ${values['from-env']} is empty.` : 'No key was given on standard input.');
    const info = await engine.keys.add({ kind, label: values.label, secret, client: values.client ?? null, baseUrl: values['api-url'] ?? null, rpm });
    io.stdout.write(
      `Stored ${info.kind} key "${info.label}" (…${info.last4}) in the OS keychain; it is now the default ${info.kind} key (batches pick another with --key LABEL).${info.rpm === null ? '' : ` Its batches keep to ${info.rpm} requests a minute.`}\n`,
    );
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const keysListCommand = bindCommand(keysListSpec, async ({ values }, io) => {
  const engine = openEngineToRead(globalOptions(values, io.env), io);
  try {
    const keys = engine.keys.list();
    if (values.json) io.stdout.write(`${JSON.stringify({ keys }, null, 2)}\n`);
    else {
      // A key in the environment is sent before any stored one (headless use): listed too, or "No keys stored" misleads.
      const fromEnv = Object.entries(ENV_VAR).flatMap(([kind, name]) => {
        const v = io.env[name]?.trim();
        return v ? [`${name} is set (…${last4(v)}): batches that need the ${kind} key send with it, before any stored ${kind} key.`] : [];
      });
      if (keys.length === 0)
        io.stdout.write(
          fromEnv.length > 0 ? 'No keys stored.\n' : 'No keys stored. Without keys and without --api-url, batches run on the embedded sandbox.\n',
        );
      for (const k of keys) io.stdout.write(`${describeKey(k)}\n`);
      for (const line of fromEnv) io.stdout.write(`${line}\n`);
    }
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const keysRemoveCommand = bindCommand(keysRemoveSpec, async ({ values, positionals }, io) => {
  const kind = keyKind(values.kind);
  const label = positionals[0] ?? values.label;
  if (!label) throw new UsageError('keys remove needs the key label.');
  const engine = openEngine(globalOptions(values, io.env), io);
  try {
    const key = oneKey(engine, label, kind);
    await engine.keys.remove(key.id);
    io.stdout.write(`Removed ${key.kind} key "${key.label}" from the keychain.\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const keysSetCommand = bindCommand(keysSetSpec, async ({ values, positionals }, io) => {
  const kind = keyKind(values.kind);
  const label = positionals[0];
  if (!label) throw new UsageError('keys set needs the key label: `batchdesk keys set LABEL --rpm N | --client NAME | --default`.');
  const rpm = values.rpm === undefined ? undefined : keyRpm(values.rpm, true);
  if (rpm === undefined && values.client === undefined && !values.default)
    throw new UsageError('Nothing to change: give --client NAME, --rpm N|default or --default.');
  const engine = openEngine(globalOptions(values, io.env), io);
  try {
    const key = oneKey(engine, label, kind);
    const client = values.client === undefined ? undefined : values.client.trim() === '' ? null : values.client.trim();
    const info = engine.keys.update(key.id, {
      ...(client !== undefined ? { client } : {}),
      ...(rpm !== undefined ? { rpm } : {}),
      makeDefault: values.default === true,
    });
    io.stdout.write(`${describeKey(info)}\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
