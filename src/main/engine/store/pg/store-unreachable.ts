// Which failures of the shared store mean "the database cannot be reached right now" (a worker
// pauses, says so, and tries again: nothing it holds is lost, its leases simply run on or out)
// and which are real errors of a statement (a bug or a refused change: reported as such).
// SQLSTATE classes: 08 connection exception, 57P01-57P03 server shutting down or starting,
// 53300 too many connections; and the socket errors of a server that is down or unreachable.
// A store that does not answer in time counts too (pg-queue-store.ts ANSWER_MS): the server
// stopped the statement (57014) or ended a session left idle in its transaction (25P03, 57P05),
// or the client stopped waiting ("Query read timeout").
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25P03', '57P05']);
const DROPPED =
  /Connection terminated|connection (?:is )?closed|Client has encountered a connection error|timeout exceeded when trying to connect|^Query read timeout$/i;

export function isStoreUnreachable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  // A resolver or connect failure may come wrapped (AggregateError of every address tried).
  if (e instanceof AggregateError && e.errors.some(isStoreUnreachable)) return true;
  return DROPPED.test(e.message);
}

/** A transaction the server rolled back to break a deadlock or a serialization conflict: safe to run again at once. */
export function isTransientConflict(e: unknown): boolean {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return code === '40P01' || code === '40001';
}

/** What a command says when the store is out of reach, at its start or midway: which store (its password hidden), why, and what to do. */
export function unreachableWords(shownUrl: string, e: unknown): string {
  return `The shared store ${shownUrl} cannot be reached (${causeOf(e)}). Check that the PostgreSQL server is running and that this computer can reach its host and port, then try again.`;
}

/** The client's own words for why, or those of every address it tried. */
export function causeOf(e: unknown): string {
  if (e instanceof AggregateError && e.message === '') return e.errors.map(causeOf).join('; ');
  if (e instanceof Error && e.message === 'Query read timeout') return 'it stopped answering';
  return e instanceof Error ? e.message : String(e);
}
