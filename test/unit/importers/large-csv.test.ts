// A 100,000-row CSV must import completely, with problems on the right rows, in one streamed pass.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { importMessageCsv } from '../../../src/main/engine/importers';
import { tempDirs } from './helpers';

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

const ROWS = 100_000;

it('imports a generated 100,000-row CSV', async () => {
  const path = join(await tmp.make(), 'big.csv');
  const out = createWriteStream(path);
  out.write('to,text,name,order\r\n');
  const bad = new Set<number>();
  for (let i = 0; i < ROWS; i++) {
    const row = i + 2;
    // Every 10,000th row carries a local number, to check problems land on the right row.
    const local = i % 10_000 === 5_000;
    if (local) bad.add(row);
    const to = local ? '020 7946 0000' : `+44 20 7946 0${String(i % 1000).padStart(3, '0')}`;
    const text = i % 7 === 0 ? '"Hi {{name}},\nyour order {{order}} is ""ready"""' : '"Hi {{name}}, order {{order}} shipped"';
    if (!out.write(`${to},${text},Person ${i},${i}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  const res = await importMessageCsv(path, { channelKind: 'messaging' });
  expect(res.problems.map((p) => p.row)).toEqual([...bad]);
  expect(res.rows).toHaveLength(ROWS - bad.size);
  expect(res.rows[0]).toEqual({
    row: 2,
    to: '+442079460000',
    text: 'Hi Person 0,\nyour order 0 is "ready"',
    subject: null,
    fields: { name: 'Person 0', order: '0' },
  });
  const last = res.rows.at(-1);
  expect(last).toMatchObject({ row: ROWS + 1, to: '+442079460999', text: `Hi Person ${ROWS - 1}, order ${ROWS - 1} shipped` });
  // Rows come back in file order with spreadsheet row numbers.
  let previous = 1;
  for (const r of res.rows) {
    expect(r.row).toBeGreaterThan(previous);
    previous = r.row;
  }
});
