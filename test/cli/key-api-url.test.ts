// batchdesk keys add --api-url, as a user runs it: the key's batches go to its own API (here a
// second sandbox, B) while `run` itself has no API configured (the embedded sandbox); the run says
// so once; a key that API refuses is named with that API's address. Keys in the test session's keychain.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { SandboxAdmin } from '../../src/sandbox/admin-client';

describe('batchdesk keys add --api-url', () => {
  const dir = tempDir('batchdesk-cli-key-url-');
  const args = ['--data-dir', join(dir.path, 'data')];
  const stamp = Date.now().toString(36);
  const [acme, globex] = [`acme-${stamp}`, `globex-${stamp}`];
  let b: SandboxHandle | undefined;
  beforeAll(() => assertBuilt());
  afterAll(async () => {
    for (const label of [acme, globex]) await runCli(['keys', 'remove', label, ...args]);
    await b?.close();
    dir.cleanup();
  });

  it("sends the key's batches to its own API, says so once, and names that API when it refuses a key", async () => {
    b = await startSandbox({ port: 0, seed: 11 });
    const adminB = new SandboxAdmin(b.url, b.adminToken);
    const key = await adminB.createKey({ client: 'ACME GmbH', kind: 'channel' });

    const bad = await runCli(['keys', 'add', '--kind', 'channel', '--label', acme, '--api-url', 'https://api.example.com/v1', ...args], {}, key.key);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The key was not stored: its --api-url is not usable. The API URL "https://api.example.com/v1" ends in /v1');
    const add = await runCli(['keys', 'add', '--kind', 'channel', '--label', acme, '--client', 'ACME GmbH', '--api-url', b.url, ...args], {}, key.key);
    expect(add.code, add.stderr).toBe(0);
    // B never issued this one.
    const wrong = await runCli(
      ['keys', 'add', '--kind', 'channel', '--label', globex, '--client', 'Globex', '--api-url', b.url, ...args],
      {},
      'ck_test_0123456789wxyz',
    );
    expect(wrong.code, wrong.stderr).toBe(0);
    expect((await runCli(['keys', 'list', ...args])).stdout).toContain(`${b.url}/`);

    const create = async (label: string): Promise<string> => {
      const csv = join(dir.path, `${label}.csv`);
      writeFileSync(csv, `to,text\n+442079460041,Hi from ${label}\n+442079460042,Hello from ${label}\n`);
      const made = await runCli(['batch', 'create', 'channel', csv, '--key', label, '--json', ...args]);
      expect(made.code, made.stderr).toBe(0);
      return (JSON.parse(made.stdout) as { batch: { id: string } }).batch.id;
    };
    const ok = await create(acme);
    const run = await runCli(['run', ok, ...args]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Sending to embedded sandbox');
    const note = `The channel key "${acme}" (…${key.key.slice(-4)}) has an API address of its own: its batches are sent to ${b.url}/, not to the sandbox.`;
    expect(run.stderr.split(note)).toHaveLength(2);
    expect((await adminB.ledger()).filter((d) => d.key_id === key.id)).toHaveLength(2);
    expect((await runCli(['status', ok, ...args])).stdout).toContain(`sent to the API at ${b.url}/`);

    const refused = await create(globex);
    const paused = await runCli(['run', refused, ...args]);
    expect(paused.code).not.toBe(0);
    const status = await runCli(['status', refused, ...args]);
    expect(status.stdout).toContain(`The API at ${b.url}/ refused the channel key "${globex} …wxyz" (HTTP 401`);
    expect(status.stdout).not.toContain('embedded sandbox refused');
  });
});
