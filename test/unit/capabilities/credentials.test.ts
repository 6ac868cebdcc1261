// The kind of key a capability's requests carry is declared once in its descriptor (the window's
// key select and the engine's key choice read it); each engine module must send with that kind.
import { describe, expect, it } from 'vitest';
import { BATCH_CAPABILITIES } from '../../../src/shared/domain';
import { describe as describeCapability } from '../../../src/shared/capabilities/catalog';
import { capabilityFor } from '../../../src/main/engine/capabilities/registry';

describe('capability credentials', () => {
  it.each(BATCH_CAPABILITIES)('%s: the engine module sends with the kind of key its descriptor declares', (c) => {
    expect(capabilityFor(c).credential).toBe(describeCapability(c).credential);
  });
  it('only channel routes take channel keys', () => {
    expect(BATCH_CAPABILITIES.filter((c) => describeCapability(c).credential === 'channel')).toEqual(['channel']);
  });
});
