// Which key each step of a new batch sends with, and which client it is for.
import { describe, expect, it } from 'vitest';
import { keyChooser, labelOfKeyId } from '../../../src/main/engine/secrets/key-choice';
import type { KeyInfo } from '../../../src/main/engine/secrets/key-manager';

const key = (kind: 'api' | 'channel', label: string, client: string | null, active = false): KeyInfo => ({
  id: `${kind}:${label}`,
  kind,
  label,
  client,
  base_url: null,
  last4: 'abcd',
  created_at: 0,
  active,
  rpm: null,
});
const KEYS = [
  key('api', 'acme', 'ACME'),
  key('channel', 'acme-chat', 'ACME'),
  key('api', 'globex', 'Globex', true),
  key('channel', 'g1', 'Globex'),
  key('channel', 'g2', 'Globex'),
];
// The default API key is Globex's; no channel key is the default (the environment's overrides).
const defaultKey = (kind: 'api' | 'channel') => (kind === 'api' ? { id: 'api:globex', client: 'Globex' } : { id: null, client: null });

describe('key choice', () => {
  it('a picked key serves its kind; a later step of the other kind takes the same client’s only key of that kind', () => {
    const choose = keyChooser({ label: 'acme', parent: null, keys: KEYS, defaultKey });
    expect(choose('api', true)).toEqual({ id: 'api:acme', client: 'ACME' });
    expect(choose('channel', false)).toEqual({ id: 'channel:acme-chat', client: 'ACME' });
  });

  it('a client with two keys of the later kind: the default key sends, and is billed (the client whose key pays)', () => {
    const choose = keyChooser({ label: 'globex', parent: null, keys: KEYS, defaultKey });
    expect(choose('channel', false)).toEqual({ id: null, client: null });
  });

  it('no key picked: bound to the default key now (a later default does not pay for it), billed to its client; a follow-up keeps its parent’s', () => {
    expect(keyChooser({ label: undefined, parent: null, keys: KEYS, defaultKey })('api', true)).toEqual({ id: 'api:globex', client: 'Globex' });
    const follow = keyChooser({ label: undefined, parent: { id: 'api:acme', client: 'ACME' }, keys: KEYS, defaultKey });
    expect(follow('api', true)).toEqual({ id: 'api:acme', client: 'ACME' });
    expect(follow('channel', true)).toEqual({ id: 'channel:acme-chat', client: 'ACME' });
  });

  it('refuses a label nobody has, and a first step of the wrong kind, naming what is stored', () => {
    expect(() => keyChooser({ label: 'initech', parent: null, keys: KEYS, defaultKey })).toThrow(
      /No stored key is labelled "initech"\. Stored keys: acme \(api, ACME\), acme-chat/,
    );
    expect(() => keyChooser({ label: 'acme-chat', parent: null, keys: KEYS, defaultKey })('api', true)).toThrow(
      /"acme-chat" is a channel key; this batch needs an API key/,
    );
    expect(labelOfKeyId('channel:acme-chat')).toBe('acme-chat');
  });
});
