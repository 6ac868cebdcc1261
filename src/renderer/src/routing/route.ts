// Hash routes, so every screen can be deep-linked (#/batches/<id>/jobs/<jobId> opens a job;
// #/batches/<id>/review[/jobs/<jobId>] lists only the invoices that need review). Pure, so it is
// unit-tested without a window; navigate() is in use-route.ts.
export type Route =
  | { name: 'batches' }
  /** `review`: the job list shows only invoices that failed a check (absent: false). */
  | { name: 'batch'; id: string; jobId: number | null; review?: boolean }
  /** `from`: a follow-up of that batch (#/new/from/<id>). */
  | { name: 'new'; from: string | null }
  /** Search across every batch (#/search/<words>). */
  | { name: 'search'; query: string; semantic: boolean }
  | { name: 'costs' }
  /** A tier comparison (#/compare/<group>). */
  | { name: 'compare'; group: string }
  /** A client's monthly statement, printable (#/costs/statement/<YYYY-MM>[/<client>]; no client: batches without one). */
  | { name: 'statement'; month: string; client: string | null }
  /** `section`: scrolled to and focused (#/keys/phone-country: the phone country's choice, linked from New batch). */
  | { name: 'keys'; section?: 'phone-country' }
  /** Hot folders (#/watch). */
  | { name: 'watch' }
  | { name: 'not_found'; hash: string };

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const [first, second, third] = parts;
  if (first === undefined) return { name: 'batches' };
  if (first === 'batches') {
    if (second === undefined) return { name: 'batches' };
    const review = third === 'review';
    const batch = (jobId: number | null): Route => ({ name: 'batch', id: second, jobId, ...(review ? { review } : {}) });
    const [jobs, job, ...rest] = parts.slice(review ? 3 : 2);
    if (jobs === undefined) return batch(null);
    if (jobs === 'jobs' && job !== undefined && /^\d+$/.test(job) && rest.length === 0) return batch(Number(job));
  }
  if (first === 'search' && parts.length <= 2) return { name: 'search', query: second ?? '', semantic: false };
  if (first === 'search-meaning' && parts.length <= 2) return { name: 'search', query: second ?? '', semantic: true };
  if (first === 'new' && second === 'from' && third !== undefined && parts.length === 3) return { name: 'new', from: third };
  if (parts.length === 1 && first === 'new') return { name: 'new', from: null };
  if (parts.length === 1 && (first === 'costs' || first === 'keys' || first === 'watch')) return { name: first };
  if (first === 'keys' && second === 'phone-country' && parts.length === 2) return { name: 'keys', section: 'phone-country' };
  if (first === 'compare' && second !== undefined && parts.length === 2) return { name: 'compare', group: second };
  if (first === 'costs' && second === 'statement' && third !== undefined && /^\d{4}-\d{2}$/.test(third) && parts.length <= 4) {
    return { name: 'statement', month: third, client: parts[3] ?? null };
  }
  return { name: 'not_found', hash };
}

export function hrefFor(route: Route): string {
  switch (route.name) {
    case 'batches':
      return '#/batches';
    case 'batch': {
      const base = `#/batches/${encodeURIComponent(route.id)}${route.review ? '/review' : ''}`;
      return route.jobId === null ? base : `${base}/jobs/${route.jobId}`;
    }
    case 'new':
      return route.from === null ? '#/new' : `#/new/from/${encodeURIComponent(route.from)}`;
    case 'search': {
      const base = route.semantic ? '#/search-meaning' : '#/search';
      return route.query === '' ? base : `${base}/${encodeURIComponent(route.query)}`;
    }
    case 'costs':
      return '#/costs';
    case 'compare':
      return `#/compare/${encodeURIComponent(route.group)}`;
    case 'statement':
      return `#/costs/statement/${route.month}${route.client === null ? '' : `/${encodeURIComponent(route.client)}`}`;
    case 'keys':
      return route.section === undefined ? '#/keys' : `#/keys/${route.section}`;
    case 'watch':
      return '#/watch';
    case 'not_found':
      return route.hash;
  }
}
