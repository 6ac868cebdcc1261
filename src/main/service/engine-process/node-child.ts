// The engine as a Node child process (the browser host, tests, the bench): out/main/engine.js forked
// with an IPC channel carrying structured clones, as Electron's utilityProcess does for the app.
import { fork } from 'node:child_process';
import type { EngineProcess, SpawnEngine } from './engine-client';

export interface NodeChildOptions {
  /** Node flags for the child (tests run the source through a loader); none by default, whatever this process has. */
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
}

export function nodeChildEngine(modulePath: string, opts: NodeChildOptions = {}): SpawnEngine {
  return (): EngineProcess => {
    const child = fork(modulePath, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: opts.execArgv ?? [],
      env: opts.env ?? process.env,
    });
    let exitListener: ((how: string) => void) | null = null;
    let ended = false;
    const end = (how: string): void => {
      if (ended) return;
      ended = true;
      exitListener?.(how);
    };
    child.once('exit', (code, signal) => end(signal ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`));
    // Could not be started at all (no 'exit' follows then).
    child.once('error', (e) => {
      if (child.exitCode === null && child.signalCode === null && child.pid === undefined) end(`could not be started: ${e.message}`);
    });
    return {
      pid: child.pid,
      post: (m) => {
        // A channel already closed (the child is ending) drops the message; its exit is reported.
        if (child.connected) child.send(m, undefined, undefined, () => undefined);
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => {
        exitListener = listener;
      },
      kill: () => void child.kill('SIGKILL'),
    };
  };
}
