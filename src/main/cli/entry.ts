// The command line's entry (out/main/cli.js). Before the command line itself loads (most of a
// command's start-up: its modules compiled and evaluated), it starts what a `batch create` of a
// large file will want, the import's writing thread, which then boots on the other core meanwhile
// (queue/chunk-worker.ts). Everything else is in main.ts.
import { startChunkWorkerFor } from '../engine/queue/chunk-worker';
import type { Streams } from './io';
import type { ExitCode } from './exit-codes';

export async function main(argv: string[], streams: Streams): Promise<ExitCode | 130> {
  startChunkWorkerFor(argv);
  const cli = await import('./main');
  return cli.main(argv, streams);
}

// Run when executed (bundle or tsx), not when imported by tests.
const entry = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:cli\.js|cli[\\/]entry\.ts)$/.test(entry)) {
  void main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }).then((code) => {
    process.exitCode = code;
  });
}
