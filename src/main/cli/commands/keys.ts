// keys add | list | remove: secrets go to the OS keychain, metadata to the data folder.
import { parse } from '../parse';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine } from '../context';
import { readSecret } from '../read-secret';

export async function cmdKeys(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, {
    kind: { type: 'string' },
    label: { type: 'string' },
    client: { type: 'string' },
    'from-env': { type: 'string' },
    json: { type: 'boolean' },
  });
  const kind = values.kind === undefined ? undefined : values.kind === 'api' || values.kind === 'channel' ? values.kind : null;
  if (kind === null) throw new UsageError(`--kind must be api or channel (got "${values.kind}").`);
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    switch (sub) {
      case 'add': {
        if (!kind) throw new UsageError('keys add needs --kind api or --kind channel.');
        if (!values.label) throw new UsageError('keys add needs --label NAME (how the key is shown; the key itself is never shown).');
        const secret = values['from-env'] ? (io.env[values['from-env']] ?? '') : await readSecret(io.stdin, io.stderr, `Paste the ${kind} key for "${values.label}" (input hidden): `);
        if (!secret) throw new UsageError(values['from-env'] ? `Environment variable ${values['from-env']} is empty.` : 'No key was given on standard input.');
        const info = await engine.keys.add({ kind, label: values.label, secret, client: values.client ?? null, baseUrl: values['api-url'] ?? null });
        io.stdout.write(`Stored ${info.kind} key "${info.label}" (…${info.last4}) in the OS keychain; it is now the active ${info.kind} key.\n`);
        return EXIT.ok;
      }
      case 'list': {
        const keys = engine.keys.list();
        if (values.json) io.stdout.write(`${JSON.stringify({ keys }, null, 2)}\n`);
        else if (keys.length === 0) io.stdout.write('No keys stored. Without keys and without --api-url, batches run on the embedded sandbox.\n');
        else
          for (const k of keys)
            io.stdout.write(`${k.active ? '*' : ' '} ${k.kind.padEnd(7)} ${k.label.padEnd(20)} …${k.last4}  client ${k.client ?? '-'}  ${k.base_url ?? '(default API)'}\n`);
        return EXIT.ok;
      }
      case 'remove': {
        const label = positionals[0] ?? values.label;
        if (!label) throw new UsageError('keys remove needs the key label.');
        const matches = engine.keys.find(label).filter((k) => !kind || k.kind === kind);
        if (matches.length === 0) throw new UsageError(`No stored key "${label}". \`batchdesk keys list\` shows them.`);
        if (matches.length > 1) throw new UsageError(`Both an api and a channel key are labelled "${label}"; add --kind.`);
        const key = matches[0];
        if (!key) return EXIT.usage;
        await engine.keys.remove(key.id);
        io.stdout.write(`Removed ${key.kind} key "${key.label}" from the keychain.\n`);
        return EXIT.ok;
      }
      default:
        throw new UsageError('keys takes add, list or remove.');
    }
  } finally {
    engine.close();
  }
}
