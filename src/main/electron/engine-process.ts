// The engine as an Electron utilityProcess: out/main/engine.js in a Node process of Electron's own,
// talking through process.parentPort (service/engine-process/parent-port.ts).
import { utilityProcess } from 'electron';
import type { EngineProcess, SpawnEngine } from '../service/engine-process/engine-client';

export function utilityEngine(modulePath: string): SpawnEngine {
  return (): EngineProcess => {
    const child = utilityProcess.fork(modulePath, [], { serviceName: 'Batchdesk engine', stdio: 'inherit' });
    return {
      get pid() {
        return child.pid;
      },
      post: (m) => {
        try {
          child.postMessage(m);
        } catch {
          // It is ending: its exit is reported, and calls in flight are answered then.
        }
      },
      onMessage: (listener) => void child.on('message', listener),
      // utilityProcess reports the exit code only (a signal shows as the code waitpid gave).
      onExit: (listener) => void child.once('exit', (code) => listener(`exit code ${code}`)),
      kill: () => void child.kill(),
    };
  };
}
