// The rows a batch's import left out are kept with the batch (migration 28): long after the drop,
// `batch skipped` and the batch page's "Download rejected rows" give them back as the CSV's own
// columns and a problem column; forget scrubs a person from them too.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { englishCause, skippedRowsCsv } from '../../src/shared/skipped-rows';
import { startHarness, writeText } from './harness';
import { noKeychain, TEST_CONFIG } from './harness-shared';

const CSV = [
  'to,text,order',
  '+44 20 7946 0001,Your order is ready,A-1',
  'not a number,Your order is ready,A-2',
  '+44 20 7946 0001,Your order is ready,A-3',
  '+44 20 7946 0002,,A-4',
  '+44 20 7946 0003,"Ready, with a comma",A-5',
].join('\n');

describe('rows left out at creation, kept with the batch', () => {
  it('are read back with their cells and problem codes, after the engine is opened again', async () => {
    const h = await startHarness();
    const csv = await writeText(h, 'orders.csv', `${CSV}\n`);
    h.engine.optOuts.add('+442079460003', 'asked by phone');
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv] });
    const id = created.batch?.id ?? '';
    expect(created.batch?.total).toBe(1);
    h.engine.close();
    const again = Engine.open({ dataDir: h.dir, secrets: noKeychain, env: h.env, config: TEST_CONFIG });
    try {
      const rows = await again.skippedRows(id);
      expect(rows.map((r) => [r.row, r.code?.code ?? null, r.cells])).toEqual([
        [3, 'phone_not_international', ['not a number', 'Your order is ready', 'A-2']],
        [4, 'duplicate_row', ['+44 20 7946 0001', 'Your order is ready', 'A-3']],
        [5, 'text_empty', ['+44 20 7946 0002', '', 'A-4']],
        [6, 'opt_out_listed', ['+44 20 7946 0003', 'Ready, with a comma', 'A-5']],
      ]);
      const out = skippedRowsCsv(rows, englishCause).split('\r\n');
      expect(out[0]).toBe('to,text,order,problem');
      expect(out[1]).toMatch(/^not a number,Your order is ready,A-2,"?phone number ""not a number"" is not in international format/);
      expect(out[4]).toMatch(/^'\+44 20 7946 0003,"Ready, with a comma",A-5,"'\+442079460003 is on the opt-out list/);
      expect(out).toHaveLength(6);
    } finally {
      again.close();
    }
  });
});
