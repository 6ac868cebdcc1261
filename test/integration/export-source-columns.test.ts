// Exports keep the user's data: a message CSV with its own columns (an order number, a customer,
// a `state` that a result column is also called) is imported, sent on the sandbox and exported;
// the CSV and the JSON, parsed back, hold every source column and value beside the results, a
// clashing name under `source_`, formula-like text made safe as every CSV cell is.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from '../helpers/csv';
import { createAndRun, startHarness, ukDramaNumber, writeText } from './harness';

describe('exports keep the source CSV columns', () => {
  it('a message batch: every source column and value comes back in the CSV and the JSON', async () => {
    const h = await startHarness();
    const source = [
      { to: ukDramaNumber(1), text: 'Your order {{order}} has shipped.', order: 'B-1001', customer: 'Ana Müller', state: 'Bavaria', note: '' },
      { to: ukDramaNumber(2), text: 'Your order {{order}} has shipped.', order: 'B-1002', customer: 'Bo, "the" buyer', state: 'Hesse', note: '=1+1' },
      { to: ukDramaNumber(3), text: 'Your order {{order}} has shipped.', order: 'B-1003', customer: 'Cy', state: '', note: 'line one\nline two' },
    ];
    const header = ['order', 'to', 'customer', 'text', 'state', 'note'];
    const q = (v: string): string => `"${v.replace(/"/g, '""')}"`;
    const csv = await writeText(
      h,
      'october notice.csv',
      [header.join(','), ...source.map((r) => header.map((c) => q(r[c as keyof typeof r])).join(','))].join('\r\n'),
    );
    const run = await createAndRun(h, { capability: 'channel', paths: [csv] });
    expect(run.summary.counts).toMatchObject({ succeeded: 3 });
    // Named after what was dropped, not the capability and a path.
    expect(run.summary.name).toBe('october notice.csv (3 messages)');

    const out = join(h.dir, 'results.csv');
    expect(await h.engine.exportBatch(run.id, 'csv', out)).toBe(3);
    const text = (await readFile(out, 'utf8')).replace(/^\uFEFF/, '');
    const columns = parseCsv(text)[0] ?? [];
    // The result columns first, the source's own after them in the file's order; `state` (a result column) prefixed.
    expect(columns.slice(0, 3)).toEqual(['item', 'source', 'state']);
    expect(columns.slice(-4)).toEqual(['order', 'customer', 'source_state', 'note']);
    const rows = csvRecords(text);
    expect(rows).toHaveLength(3);
    rows.forEach((row, i) => {
      const s = source[i];
      if (!s) throw new Error('row without source');
      expect(row.state).toBe('succeeded');
      // A phone number is kept as text in a spreadsheet ('+44...), as in every CSV export.
      expect(row.to).toBe(`'${s.to}`);
      expect(row.text).toBe(`Your order ${s.order} has shipped.`);
      expect(row.order).toBe(s.order);
      expect(row.customer).toBe(s.customer);
      expect(row.source_state).toBe(s.state);
      // Spreadsheet-safe: a formula-like cell is text (the ' of every CSV cell), the rest as written.
      expect(row.note).toBe(s.note.startsWith('=') ? `'${s.note}` : s.note);
    });

    const jsonPath = join(h.dir, 'results.json');
    await h.engine.exportBatch(run.id, 'json', jsonPath);
    const json = JSON.parse(await readFile(jsonPath, 'utf8')) as Record<string, unknown>[];
    expect(json.map((r) => [r.order, r.customer, r.source_state, r.note, r.state])).toEqual(
      source.map((s) => [s.order, s.customer, s.state, s.note, 'succeeded']),
    );
  });

  it("an e-mail batch's subject comes back with the other columns", async () => {
    const h = await startHarness();
    const csv = await writeText(h, 'mail.csv', 'to,subject,text,order\nana@example.com,Order {{order}},Shipped.,B-1\nbo@example.com,,Shipped too.,B-2\n');
    const run = await createAndRun(h, { capability: 'channel', channel: 'email', paths: [csv] });
    expect(run.summary.counts).toMatchObject({ succeeded: 2 });
    expect(run.summary.name).toBe('mail.csv (2 e-mails)');
    const out = join(h.dir, 'mail-results.csv');
    await h.engine.exportBatch(run.id, 'csv', out, false, { bom: false });
    const text = await readFile(out, 'utf8');
    expect((parseCsv(text)[0] ?? []).slice(-2)).toEqual(['subject', 'order']);
    expect(csvRecords(text).map((r) => [r.to, r.subject, r.order])).toEqual([
      ['ana@example.com', 'Order B-1', 'B-1'],
      ['bo@example.com', '', 'B-2'],
    ]);
  });

  it("a batch of two CSVs exports both files' columns; a row of a file without one has it empty", async () => {
    const h = await startHarness();
    const a = await writeText(h, 'a.csv', 'text,name,order\nHello there.,greeting,17\n');
    const b = await writeText(h, 'b.csv', 'text,region\nGoodbye now.,north\n');
    const run = await createAndRun(h, { capability: 'tts', paths: [a, b] });
    expect(run.summary.counts).toMatchObject({ succeeded: 2 });
    const out = join(h.dir, 'speech.csv');
    await h.engine.exportBatch(run.id, 'csv', out, false, { bom: false });
    const text = await readFile(out, 'utf8');
    expect((parseCsv(text)[0] ?? []).slice(-3)).toEqual(['source_name', 'order', 'region']);
    expect(csvRecords(text).map((r) => [r.input, r.name, r.source_name, r.order, r.region])).toEqual([
      ['Hello there.', 'greeting', 'greeting', '17', ''],
      ['Goodbye now.', '', '', '', 'north'],
    ]);
  });
});
