// Chooses the API: --api-url / BATCHDESK_API_URL / the active key's base URL, or, with none
// configured, the embedded sandbox started in-process (its state kept in the data folder so
// idempotency survives restarts). This is the composing layer: the engine only sees an
// ApiTarget and never imports the sandbox.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { ApiTarget } from '../engine/api/target';
import type { KeyManager } from '../engine/secrets/key-manager';
import { checkApiUrl } from '../../shared/settings-rules';
import { UserError } from '../engine/failures';
import type { SandboxHandle } from '../../sandbox/server';

export interface Connection {
  target: ApiTarget;
  /** One line for the user: where requests go. */
  description: string;
  sandbox: SandboxHandle | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  apiUrl: string | null;
  env: NodeJS.ProcessEnv;
  keys: KeyManager;
  dataDir: string;
}

export function configuredApiUrl(opts: Omit<ConnectOptions, 'dataDir'>): string | null {
  return opts.apiUrl ?? opts.env.BATCHDESK_API_URL ?? opts.keys.active('api')?.base_url ?? null;
}

export async function connect(opts: ConnectOptions): Promise<Connection> {
  const url = configuredApiUrl(opts);
  if (url) {
    const checked = checkApiUrl(url);
    if (!checked.ok) throw new UserError(`${checked.message} (from --api-url, BATCHDESK_API_URL, the setting, or the active key)`);
    const parsed = new URL(checked.url);
    return {
      target: { baseUrl: parsed.toString(), sandbox: false, resolveKey: (kind, keyId) => (keyId ? opts.keys.resolveId(keyId) : opts.keys.resolve(kind)) },
      description: `API ${parsed.toString()}${ownAddressNotes(opts.keys, parsed.toString())}`,
      sandbox: null,
      close: async () => undefined,
    };
  }
  const dir = join(opts.dataDir, 'sandbox');
  mkdirSync(dir, { recursive: true });
  // Loaded only here: a command that never talks to the embedded sandbox (batch create, status)
  // does not parse and set up its 100 kB at start.
  const { startSandbox } = await import('../../sandbox/server');
  const sb = await startSandbox({ dbFile: join(dir, 'sandbox.sqlite') });
  return {
    target: {
      baseUrl: sb.url,
      sandbox: true,
      resolveKey: async (kind, keyId) => {
        // A batch made for a stored key sends with it, even here (the sandbox refuses a key it did not issue, and says so).
        if (keyId) return opts.keys.resolveId(keyId);
        const secret = kind === 'api' ? sb.apiKey : sb.channelKey;
        // A name, not words: the window shows it as it is in every language (the kind is said beside it).
        return { secret, label: `Sandbox …${secret.slice(-4)}`, source: 'sandbox', id: null, rpm: null, baseUrl: null };
      },
    },
    description: `embedded sandbox at ${sb.url} (no API configured: results are sandbox results and nothing reaches a customer)${ownAddressNotes(opts.keys, null)}`,
    sandbox: sb,
    close: () => sb.close(),
  };
}

/**
 * Said once where a run says where it sends: each stored key with an API address of its own other
 * than the run's sends its batches there (api/destination.ts), whatever --api-url the run was given.
 */
function ownAddressNotes(keys: KeyManager, runApi: string | null): string {
  const notes: string[] = [];
  for (const k of keys.list()) {
    // One it cannot use is not sent to at all: its batches pause saying so (secrets/key-manager.ts).
    const own = k.base_url === null ? null : checkApiUrl(k.base_url);
    if (own === null || !own.ok || own.url === runApi) continue;
    notes.push(
      `\n  The ${k.kind === 'channel' ? 'channel' : 'API'} key "${k.label}" (…${k.last4}) has an API address of its own: its batches are sent to ${own.url}, not to ${runApi === null ? 'the sandbox' : 'this API'}.`,
    );
  }
  return notes.join('');
}
