// A run stops on its own controller (a storage failure, the end) and also when its caller's
// signal aborts: the caller's abort is passed on, and the link is undone when the run ends.

/** Passes `outer`'s abort (already happened or to come) on to `inner`; returns what undoes the link. */
export function linkAbort(outer: AbortSignal | undefined, inner: AbortController): () => void {
  if (!outer) return () => undefined;
  const relay = (): void => inner.abort();
  if (outer.aborted) inner.abort();
  outer.addEventListener('abort', relay, { once: true });
  return () => outer.removeEventListener('abort', relay);
}
