// `batchdesk sandbox` refuses what it cannot start with, naming the port or the file and what to
// do: a port in use, a --db in a folder that does not exist, a --db that is not a database.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';

describe('batchdesk sandbox', () => {
  beforeAll(() => assertBuilt());

  it('names a port in use, a --db folder that does not exist and a --db that is not a database', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const busy = await runCli(['sandbox', '--port', String(port)]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(
        `Port ${port} is in use (another sandbox, or another program, listens there). Choose another with --port N, or --port 0 for a free one.`,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const dir = mkdtempSync(join(tmpdir(), 'batchdesk-sandbox-cli-'));
    const missing = await runCli(['sandbox', '--db', join(dir, 'nope', 'state.sqlite')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--db ${join(dir, 'nope', 'state.sqlite')}: its folder ${join(dir, 'nope')} does not exist.`);
    const text = join(dir, 'notes.sqlite');
    writeFileSync(text, 'not a database\n'.repeat(100));
    const notDb = await runCli(['sandbox', '--db', text]);
    expect(notDb.code).toBe(2);
    expect(notDb.stderr).toContain(`--db ${text} cannot be used as the sandbox's state (SQLite: file is not a database).`);
  });
});
