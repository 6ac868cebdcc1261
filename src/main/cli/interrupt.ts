// Ctrl-C and SIGTERM while a command sends: the first says what happens to the work in flight
// and stops cleanly (the signal aborts), a second one exits at once with 130. Which signal came
// first is kept: SIGTERM is how a service manager stops a standing worker (`run --watch`), and
// for one that is its normal end, not an interruption.
import type { Io } from './io';

export interface Interrupt {
  signal: AbortSignal;
  /** The first signal received, if any. */
  stoppedBy(): NodeJS.Signals | null;
  /** Stops listening (the command is done). */
  dispose(): void;
}

export function onInterrupt(io: Io, stopping: string, then: () => void = () => undefined): Interrupt {
  const ac = new AbortController();
  let interrupts = 0;
  let first: NodeJS.Signals | null = null;
  const onSignal = (received: NodeJS.Signals): void => {
    interrupts++;
    first ??= received;
    if (interrupts > 1) process.exit(130);
    io.stderr.write(`\n${stopping}\n`);
    ac.abort();
    then();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: ac.signal,
    stoppedBy: () => first,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The exit code of a standing worker (`--watch`) that stopped: 0 when told to by SIGTERM. */
export function standingExit(stop: Interrupt): 0 | 130 {
  return stop.stoppedBy() === 'SIGTERM' ? 0 : 130;
}
