// A command on the team's store whose connection dropped or stalled midway, after the store was
// opened: said as the store being out of reach (which store, its password hidden; why; what to
// do), the same words as at the start, instead of the client's bare "read ECONNRESET".
import { SharedStoreError, UserError } from '../engine/failures';
import { isStoreUnreachable, unreachableWords } from '../engine/store/pg/store-unreachable';
import { chooseStore, redactUrl } from '../engine/store/store-url';

/** `e` as the command's user should read it, given the `--store` flag it was run with. */
export function namedStoreFailure(e: unknown, flag: string | undefined, env: NodeJS.ProcessEnv): unknown {
  // Errors of our own say what they mean already (a create that was not made, a refused change).
  if (e instanceof SharedStoreError || e instanceof UserError || !isStoreUnreachable(e)) return e;
  let url: string;
  try {
    const choice = chooseStore(flag, env);
    if (choice.kind !== 'postgresql') return e;
    url = choice.url;
  } catch {
    return e;
  }
  return new SharedStoreError(unreachableWords(redactUrl(url), e));
}
