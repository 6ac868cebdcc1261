// Ctrl-C and SIGTERM while a command sends: the first says what happens to the work in flight
// and stops cleanly (the signal aborts), a second one exits at once with 130.
import type { Io } from './io';

export interface Interrupt {
  signal: AbortSignal;
  /** Stops listening (the command is done). */
  dispose(): void;
}

export function onInterrupt(io: Io, stopping: string, then: () => void = () => undefined): Interrupt {
  const ac = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    io.stderr.write(`\n${stopping}\n`);
    ac.abort();
    then();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
