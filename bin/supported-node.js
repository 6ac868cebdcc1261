// Which Node the command line runs on: package.json's engines range, restated here because the
// launcher must decide before anything else loads (test/start/node-version.test.ts keeps the two
// equal and checks this reading of the range against semver's). Plain JavaScript that any old Node
// parses, so that an unsupported one gets a sentence, not a syntax error.
export const NODE_RANGE = '^22.22.2 || >=24.15.0';

const parts = (v) =>
  v
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);

const atLeast = (a, b) => {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
};

/** True when `version` is inside `range`: alternatives of `^X.Y.Z` or `>=X.Y.Z` joined by `||`. */
export function supportsNode(range, version) {
  const v = parts(version);
  return range.split('||').some((alt) => {
    const a = alt.trim();
    if (a.startsWith('^')) {
      const floor = parts(a.slice(1));
      return v[0] === floor[0] && atLeast(v, floor);
    }
    if (a.startsWith('>=')) return atLeast(v, parts(a.slice(2)));
    throw new Error(`supported-node.js reads only ^X.Y.Z and >=X.Y.Z ranges, not "${a}"`);
  });
}
