// keys add | list | remove: secrets go to the OS keychain, metadata to the data folder.
import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { keysAddSpec, keysListSpec, keysRemoveSpec } from '../specs/keys';
import { globalOptions, openEngine } from '../context';
import { readSecret } from '../read-secret';

function keyKind(value: string | undefined): 'api' | 'channel' | undefined {
  if (value === undefined || value === 'api' || value === 'channel') return value;
  throw new UsageError(`--kind must be api or channel (got "${value}").`);
}

export const keysAddCommand = bindCommand(keysAddSpec, async ({ values }, io) => {
  const kind = keyKind(values.kind);
  if (!kind) throw new UsageError('keys add needs --kind api or --kind channel.');
  if (!values.label) throw new UsageError('keys add needs --label NAME (how the key is shown; the key itself is never shown).');
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const secret = values['from-env'] ? (io.env[values['from-env']] ?? '') : await readSecret(io.stdin, io.stderr, `Paste the ${kind} key for "${values.label}" (input hidden): `);
    if (!secret) throw new UsageError(values['from-env'] ? `Environment variable ${values['from-env']} is empty.` : 'No key was given on standard input.');
    const info = await engine.keys.add({ kind, label: values.label, secret, client: values.client ?? null, baseUrl: values['api-url'] ?? null });
    io.stdout.write(`Stored ${info.kind} key "${info.label}" (…${info.last4}) in the OS keychain; it is now the active ${info.kind} key.\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const keysListCommand = bindCommand(keysListSpec, async ({ values }, io) => {
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const keys = engine.keys.list();
    if (values.json) io.stdout.write(`${JSON.stringify({ keys }, null, 2)}\n`);
    else if (keys.length === 0) io.stdout.write('No keys stored. Without keys and without --api-url, batches run on the embedded sandbox.\n');
    else
      for (const k of keys)
        io.stdout.write(`${k.active ? '*' : ' '} ${k.kind.padEnd(7)} ${k.label.padEnd(20)} …${k.last4}  client ${k.client ?? '-'}  ${k.base_url ?? '(default API)'}\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});

export const keysRemoveCommand = bindCommand(keysRemoveSpec, async ({ values, positionals }, io) => {
  const kind = keyKind(values.kind);
  const label = positionals[0] ?? values.label;
  if (!label) throw new UsageError('keys remove needs the key label.');
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const matches = engine.keys.find(label).filter((k) => !kind || k.kind === kind);
    if (matches.length === 0) throw new UsageError(`No stored key "${label}". \`batchdesk keys list\` shows them.`);
    if (matches.length > 1) throw new UsageError(`Both an api and a channel key are labelled "${label}"; add --kind.`);
    const key = matches[0];
    if (!key) return EXIT.usage;
    await engine.keys.remove(key.id);
    io.stdout.write(`Removed ${key.kind} key "${key.label}" from the keychain.\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
});
