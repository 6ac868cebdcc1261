import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EXIT, UsageError } from '../exit-codes';
import { UserError } from '../../engine/failures';
import { bindCommand } from '../bind-command';
import { sandboxSpec } from '../specs/sandbox';

export const sandboxCommand = bindCommand(sandboxSpec, async ({ values }, io) => {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535 (got "${values.port}").`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError('--seed must be an integer.');
  const db = values.db;
  // Said before SQLite says it without the path ("the directory does not exist").
  if (db !== undefined && !existsSync(dirname(resolve(db))))
    throw new UsageError(`--db ${db}: its folder ${dirname(resolve(db))} does not exist. Create it, or give a file in a folder that exists.`);
  const { startSandbox, formatSandboxBanner } = await import('../../../sandbox/server');
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sb = await startSandbox({
      port,
      ...(db ? { dbFile: db } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
    });
  } catch (e) {
    throw new UserError(sandboxProblem(e, port, db));
  }
  io.stdout.write(`${formatSandboxBanner(sb)}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sb.close();
  return EXIT.ok;
});

/** Why the sandbox did not start, with the file or port and what to do. */
function sandboxProblem(e: unknown, port: number, db: string | undefined): string {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'EADDRINUSE')
    return `Port ${port} is in use (another sandbox, or another program, listens there). Choose another with --port N, or --port 0 for a free one.`;
  if (code === 'EACCES') return `Port ${port} may not be used by this user. Choose one above 1023 with --port N, or --port 0 for a free one.`;
  if (db !== undefined && typeof code === 'string' && code.startsWith('SQLITE_'))
    return `--db ${db} cannot be used as the sandbox's state (SQLite: ${message}). Give a new file, or one an earlier sandbox wrote.`;
  return message;
}
