// batches.preview for the current draft, re-asked whenever sources or options change
// (debounced; a late answer for an older draft is ignored). Nothing is sent to the API.
import { useEffect, useRef, useState } from 'react';
import type { BatchRequest, Preview } from '../../../shared/contract';
import { client, errorMessage } from '../client';

export interface PreviewState {
  preview: Preview | null;
  /** The request the shown preview belongs to (JSON), so Start knows it is current. */
  forKey: string | null;
  loading: boolean;
  error: string | null;
}

export function usePreview(request: BatchRequest | null): PreviewState {
  const key = request ? JSON.stringify(request) : null;
  const [state, setState] = useState<PreviewState>({ preview: null, forKey: null, loading: false, error: null });
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (key === null) {
      setState({ preview: null, forKey: null, loading: false, error: null });
      return;
    }
    setState((s) => ({ ...s, loading: true, error: null }));
    const t = window.setTimeout(() => {
      client()
        .call('batches.preview', JSON.parse(key) as BatchRequest)
        .then((preview) => {
          if (mine === seq.current) setState({ preview, forKey: key, loading: false, error: null });
        })
        .catch((e: unknown) => {
          if (mine === seq.current) setState({ preview: null, forKey: null, loading: false, error: errorMessage(e) });
        });
    }, 250);
    return () => window.clearTimeout(t);
  }, [key]);
  return state;
}
