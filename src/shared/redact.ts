// Removes secrets from text that came from outside (a server's error body, an echoed header)
// before it is stored, logged or shown. Known secrets are replaced wherever they appear; anything
// shaped like a bearer credential is replaced too, since a server may echo a key we do not know
// (another client's, or ours under another encoding).

const BEARER = /\b(Bearer|Basic|Token)(\s+|%20|\+)[A-Za-z0-9._~+/=%-]{6,}/gi;
const KEYISH = /\b(?:sk|pk|rk|ck|ak)_(?:[A-Za-z0-9]+_)*[A-Za-z0-9]{12,}\b/g;
const MARK = '[redacted]';

export function redactSecrets(text: string, known: Iterable<string> = []): string {
  let out = text;
  for (const secret of known) {
    // Keys under 8 characters are refused when stored; shorter strings would match too much.
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(MARK);
  }
  return out.replace(BEARER, (_m, scheme: string) => `${scheme} ${MARK}`).replace(KEYISH, MARK);
}
