// A search's words as the window sends them, checked before anything is searched: none at all, or
// more than a search needs, is refused with its code (the window says it in its language) beside
// the English. The command line asks for words before it gets here.
import { UserError } from '../user-error';

/** The longest search: a few sentences, a phone number or a pasted passage. */
export const SEARCH_QUERY_MAX = 500;

/** The query without the spaces around it; refuses an empty or overlong one. */
export function checkedQuery(text: string): string {
  const query = text.trim();
  if (query === '') throw new UserError('Type what to look for: a search needs at least one word.', { code: 'search_empty' });
  if (query.length > SEARCH_QUERY_MAX)
    throw new UserError(`The search is ${query.length} characters long; the limit is ${SEARCH_QUERY_MAX}. Search for a few distinctive words instead.`, {
      code: 'search_too_long',
      length: query.length,
      limit: SEARCH_QUERY_MAX,
    });
  return query;
}
