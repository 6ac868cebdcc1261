// The opt-out list: a recipient on it is left out when a batch is created and not sent to when
// they opt out after it was created (checked just before each send); a CSV's opt_out column puts
// its row's recipient on the list; files of recipients are read with their problems named.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOptOutFile } from '../../src/main/engine/importers/read-opt-out-file';
import { createAndRun, jobsOf, startHarness, writeText } from './harness';

describe('opt-outs', () => {
  it("a CSV's opt_out column puts the recipient on the list and leaves out every row to them", async () => {
    const h = await startHarness();
    const csv = await writeText(
      h,
      'customers.csv',
      'to,text,opt_out\n+442079460001,Hello one,no\n+44 20 7946 0002,Hello two,YES\n+442079460002,Hello again two,\n+442079460003,Hello three,1\n+442079460004,Hello four,\n+442079460006,Hello six,maybe\n+442079460007,Hello seven,unsubscribed\n',
    );
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv] });
    expect(created.batch?.total).toBe(2);
    // A row that opts out but cannot be read says its recipient is not on the list.
    const broken = await writeText(h, 'broken.csv', 'to,text,opt_out\n07946 0009,Hi,yes\n+442079460010,Hi,\n');
    const b = await h.engine.preview({ capability: 'channel', paths: [broken] });
    expect(b.plan.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/not in international format/),
      expect.stringMatching(/^Row 2 also says opt_out "yes", but because the row cannot be read its recipient is NOT on the opt-out list/),
    ]);
    // A value that is neither yes nor no holds its row back instead of guessing.
    expect(created.problems.find((p) => p.row === 7)?.message).toMatch(/opt_out is "maybe", which is neither yes nor no, so this row is held back/);
    expect(h.engine.optOuts.find('+442079460007')?.source).toBe('customers.csv row 8');
    created.problems.splice(
      created.problems.findIndex((p) => p.row === 7),
      2,
    );
    // Found by the planner, said as the file's reader says its own: the file resolved, "Row 3: ...".
    expect(new Set(created.problems.map((p) => p.source))).toEqual(new Set([csv]));
    const problems = created.problems.map((p) => `${p.row}: ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(/^3: Row 3: opt_out is "YES", so \+442079460002 goes on the opt-out list/),
      expect.stringMatching(/^4: Row 4: \+442079460002 opted out \(customers\.csv row 3\); skipped/),
      expect.stringMatching(/^5: Row 5: opt_out is "1", so \+442079460003 goes on the opt-out list/),
    ]);
    expect(h.engine.optOuts.list().map((o) => [o.recipient, o.source])).toEqual([
      ['+442079460002', 'customers.csv row 3'],
      ['+442079460003', 'customers.csv row 5'],
      ['+442079460007', 'customers.csv row 8'],
    ]);
    // A later batch leaves them out too, naming the list.
    const again = await writeText(h, 'again.csv', 'to,text\n+442079460002,News\n+442079460005,News\n');
    const preview = await h.engine.preview({ capability: 'channel', paths: [again] });
    expect(preview.plan.count).toBe(1);
    expect(preview.plan.problems[0]?.message).toMatch(
      /\+442079460002 is on the opt-out list \(since \d{4}-\d\d-\d\d, from customers\.csv row 3\); skipped\. .*batchdesk optout remove \+442079460002/,
    );
  });

  it('a recipient who opts out after the batch was created is not sent to; the others are', async () => {
    const h = await startHarness();
    const csv = await writeText(h, 'm.csv', 'to,text\n+442079460011,Hi\n+442079460012,Hi\n+442079460013,Hi\n');
    const created = await h.engine.createBatch({ capability: 'channel', paths: [csv] });
    const id = created.batch?.id ?? '';
    expect(h.engine.optOuts.add('+442079460012', 'batchdesk optout add')).toBe(true);
    await h.engine.control.start([id]);
    await h.run({ batchIds: [id] });
    const jobs = jobsOf(h.engine, id);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'cancelled', 'succeeded']);
    expect(jobs[1]?.error_message).toMatch(/^not sent: \+442079460012 is on the opt-out list/);
    expect(jobs[1]?.attempts).toBe(0);
    const sent = (await h.admin.ledger()).map((d) => d.to).sort();
    expect(sent).toEqual(['+442079460011', '+442079460013']);
    expect((await h.engine.control.summary(id)).status).toBe('done');
    // Removed from the list, a new batch may message them again.
    expect(h.engine.optOuts.remove('+442079460012')).toBe(true);
    const back = await createAndRun(h, { capability: 'channel', paths: [await writeText(h, 'n.csv', 'to,text\n+442079460012,Welcome back\n')] });
    expect(back.jobs.map((j) => j.state)).toEqual(['succeeded']);
  });

  it('reads files of recipients: a named column (problems by row, as batch create names them) or one per line', async () => {
    const h = await startHarness();
    const withHeader = join(h.dir, 'unsubscribed.csv');
    await writeFile(withHeader, 'name;phone\nJo;+44 20 7946 0021\nSam;07946 0022\nAl;+442079460023\n');
    const a = await readOptOutFile(withHeader);
    expect(a.recipients).toEqual([
      { recipient: '+442079460021', source: 'unsubscribed.csv row 2' },
      { recipient: '+442079460023', source: 'unsubscribed.csv row 4' },
    ]);
    expect(a.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^unsubscribed\.csv row 3: phone number "07946 0022" is not in international format/),
    ]);
    expect(a.problems[0]).toMatchObject({ unit: 'row', row: 3, code: { code: 'phone_not_international', value: '07946 0022' } });
    const lines = join(h.dir, 'list.txt');
    await writeFile(lines, 'Jo@Example.com\n\n+12025550123\n');
    const listed = await readOptOutFile(lines);
    expect(listed.recipients).toEqual([
      { recipient: 'jo@example.com', source: 'list.txt line 1' },
      { recipient: '+12025550123', source: 'list.txt line 3' },
    ]);
    // Every recipient column of a row is taken; an empty cell is no problem.
    const both = join(h.dir, 'people.csv');
    await writeFile(both, 'name,phone,email\nEve,+44 20 7946 0600,eve@example.com\nFay,,fay@example.com\nGus,,not an address\n');
    const b = await readOptOutFile(both);
    expect(b.recipients.map((r) => r.recipient)).toEqual(['+442079460600', 'eve@example.com', 'fay@example.com']);
    expect(b.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^people\.csv row 4: e-mail address "not an address" is not valid/)]);
  });
});
