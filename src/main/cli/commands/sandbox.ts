import { EXIT, UsageError } from '../exit-codes';
import { bindCommand } from '../bind-command';
import { sandboxSpec } from '../specs/sandbox';

export const sandboxCommand = bindCommand(sandboxSpec, async ({ values }, io) => {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535 (got "${values.port}").`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError('--seed must be an integer.');
  const { startSandbox, formatSandboxBanner } = await import('../../../sandbox/server');
  const sb = await startSandbox({
    port,
    ...(values.db ? { dbFile: values.db } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
  });
  io.stdout.write(`${formatSandboxBanner(sb)}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sb.close();
  return EXIT.ok;
});
