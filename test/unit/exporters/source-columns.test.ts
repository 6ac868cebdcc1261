// The source CSV's columns in an export: their own names, `source_` before a name a result column
// (or a source column placed before) has, compared without regard to case; a row's missing cell empty.
import { describe, expect, it } from 'vitest';
import { exportNames, sourceCells } from '../../../src/main/engine/exporters/source-columns';

describe('source columns in exports', () => {
  it('keeps a free name, prefixes a taken one until it is free', () => {
    const names = exportNames(['item', 'source', 'state', 'to', 'text'], ['order', 'State', 'source_state', 'Order', 'source']);
    expect([...names.entries()]).toEqual([
      ['order', 'order'],
      ['State', 'source_State'],
      ['source_state', 'source_source_state'],
      ['Order', 'source_Order'],
      ['source', 'source_source'],
    ]);
  });
  it('gives every column a cell, empty where the row has none, and keeps odd names as own cells', () => {
    const names = exportNames(['item'], ['order', '__proto__', 'region']);
    const cells = sourceCells(names, JSON.parse('{"order":"B-1","__proto__":"x"}') as Record<string, string>);
    expect(Object.keys(cells)).toEqual(['order', '__proto__', 'region']);
    expect(cells).toMatchObject({ order: 'B-1', region: null });
    expect(Object.getOwnPropertyDescriptor(cells, '__proto__')?.value).toBe('x');
  });
});
