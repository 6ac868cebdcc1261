// The kind of key a capability's requests carry is declared once, in its descriptor (the engine's
// key choice and gate, and the window's key select, read it there).
import { describe, expect, it } from 'vitest';
import { BATCH_CAPABILITIES } from '../../../src/shared/domain';
import { describe as describeCapability } from '../../../src/shared/capabilities/catalog';

describe('capability credentials', () => {
  it('only channel routes take channel keys', () => {
    expect(BATCH_CAPABILITIES.filter((c) => describeCapability(c).credential === 'channel')).toEqual(['channel']);
  });
});
