// Engine side: the one channel to the window's process, whichever started the engine. Electron's
// utilityProcess gives the child `process.parentPort` (messages arrive as `{ data }`); a Node child
// started with an IPC channel (the browser host) has process.send and process.on('message').
// Both carry structured clones (the host's child is forked with serialization 'advanced').
import type { FromEngine } from './protocol';

export interface ParentPort {
  post(message: FromEngine): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The window's process went away (only a Node child can tell; Electron ends its utility processes itself). */
  onGone(listener: () => void): void;
}

interface ElectronParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

function isElectronParentPort(v: unknown): v is ElectronParentPort {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Partial<ElectronParentPort>).postMessage === 'function' &&
    typeof (v as Partial<ElectronParentPort>).on === 'function'
  );
}

/** The channel this process was started with, or null when it was started without one. */
export function parentPort(): ParentPort | null {
  const electron: unknown = (process as { parentPort?: unknown }).parentPort;
  if (isElectronParentPort(electron)) {
    return {
      post: (m) => electron.postMessage(m),
      onMessage: (listener) => void electron.on('message', (e) => listener(e.data)),
      onGone: () => undefined,
    };
  }
  const send = process.send?.bind(process);
  if (send) {
    return {
      // A closed channel (the parent died) is noticed by 'disconnect'; a message lost then has no reader.
      post: (m) => void send(m, undefined, undefined, () => undefined),
      onMessage: (listener) => void process.on('message', listener),
      onGone: (listener) => void process.on('disconnect', listener),
    };
  }
  return null;
}
