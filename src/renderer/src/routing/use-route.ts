import { useSyncExternalStore } from 'react';
import { hrefFor, parseHash, type Route } from './route';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const getHash = (): string => location.hash;

/** The current route, re-rendering on every hash change. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, getHash);
  return parseHash(hash);
}

/** Goes to a route (a hash change, so Back returns). */
export function navigate(route: Route): void {
  const href = hrefFor(route);
  if (location.hash !== href) location.hash = href;
}
