// Runs a child for the life of this process: termination signals go to it once, and this process
// exits with its exit code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @param {NodeJS.Signals[]} forward
 */
export function runChild(command, args, options, forward) {
  const child = spawn(command, args, options);
  let closed = false;
  for (const signal of forward)
    process.on(signal, () => {
      if (!closed) child.kill(signal);
    });
  // Whatever ends this process (an uncaught error included) must not leave the child running alone.
  process.on('exit', () => {
    if (!closed) child.kill('SIGTERM');
  });
  child.on('error', (e) => {
    process.stderr.write(`Could not start ${command}: ${e.message}\n`);
    process.exit(1);
  });
  child.on('close', (code, signal) => {
    closed = true;
    process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
  });
  return child;
}
