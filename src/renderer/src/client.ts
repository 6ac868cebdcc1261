// The one client the window uses (Electron IPC or the browser host), created on first use.
import { createClient, RpcFailure, type BatchdeskClient } from './transport';

let instance: BatchdeskClient | null = null;

export function client(): BatchdeskClient {
  instance ??= createClient();
  return instance;
}

/** The text to show for a failed call: RpcFailure and Error messages as they are. */
export function errorMessage(e: unknown): string {
  if (e instanceof RpcFailure) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
