// Runs a call, tracks "busy" and keeps the failure message for a visible alert.
import { useCallback, useState } from 'react';
import { errorMessage } from '../client';

export interface Action {
  busy: boolean;
  error: string | null;
  setError(message: string | null): void;
  run<T>(fn: () => Promise<T>): Promise<T | undefined>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (e) {
      setError(errorMessage(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
