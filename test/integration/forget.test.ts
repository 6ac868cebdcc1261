// `forget` on the real engine and sandbox: after it, no file of the data folder (the database
// with its WAL and free pages, exports, logs) holds the value in any of its written forms, search
// finds nothing of it, and an opted-out person stays opted out (a new batch to them is refused).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { tempDir } from '../helpers/temp-dir';
import { forgetTarget, type ForgetTarget } from '../../src/main/engine/forget/forget-target';

const PHONE_FORMS = ['+44 20 7946 0123', '+442079460123', '020 7946 0123', '2079460123', '7946 0123'];
const NAME_FORMS = ['jane doe', 'jane  doe'];
const EMAIL_FORMS = ['jane.doe@example.com'];

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesOf(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every file of the data folder that holds one of the forms (compared case-insensitively, as bytes). */
function traces(dir: string, forms: readonly string[]): string[] {
  const found: string[] = [];
  for (const f of filesOf(dir)) {
    if (!statSync(f).isFile()) continue;
    const bytes = readFileSync(f).toString('latin1').toLowerCase();
    for (const form of forms) if (bytes.includes(form.toLowerCase())) found.push(`${f}: ${form}`);
  }
  return found;
}

function target(value: string): ForgetTarget {
  const t = forgetTarget(value);
  if (!t.ok) throw new Error(t.reason);
  return t.target;
}

async function forget(h: Harness, value: string) {
  return h.engine.forget(target(value), value);
}

describe('forget', () => {
  it('leaves no trace of a phone number, a name or an e-mail address in the data folder, search or exports; an opted-out person stays opted out', async () => {
    const h = await startHarness();
    const own = tempDir();
    try {
      const csv = join(own.path, 'messages.csv');
      writeFileSync(
        csv,
        'to,text\r\n+44 20 7946 0123,"Hello Jane Doe, your order B-1 has shipped."\r\n+44 20 7946 0999,"Hello Max, your order B-2 has shipped."\r\n',
      );
      const notes = join(own.path, 'call notes.txt');
      writeFileSync(notes, 'Jane Doe called about her invoice; call her back on 020 7946 0123 or write to Jane.Doe@example.com\nMax asked for a catalogue\n');
      const msgs = await h.engine.createBatch({ capability: 'channel', paths: [csv] });
      const text = await h.engine.createBatch({ capability: 'text', paths: [notes], task: 'summary', then: [{ capability: 'embeddings' }] });
      await h.run({ batchIds: [msgs.batch?.id ?? '', text.batch?.id ?? ''] });
      expect((await h.engine.control.summary(text.steps[0]?.id ?? '')).counts.succeeded).toBe(2);
      h.engine.optOuts.add('+442079460123', 'jane asked on 2026-11-20 (Jane Doe)');
      // Indexed for search, and exported the way the window does (into the data folder).
      for (const words of ['Doe', '0123', 'example.com']) expect(h.engine.search(words, { limit: 50 }).length, words).toBeGreaterThan(0);
      mkdirSync(join(h.dir, 'exports'), { recursive: true });
      await h.engine.exportBatch(text.batch?.id ?? '', 'csv', join(h.dir, 'exports', `notes-${text.batch?.id}.csv`));
      await h.engine.exportBatch(msgs.batch?.id ?? '', 'json', join(h.dir, 'exports', `messages-${msgs.batch?.id}.json`));
      expect(traces(h.dir, PHONE_FORMS).length).toBeGreaterThan(0);
      expect(traces(h.dir, NAME_FORMS).length).toBeGreaterThan(0);
      expect(traces(h.dir, EMAIL_FORMS).length).toBeGreaterThan(0);

      const phone = await forget(h, '020 7946 0123'.replace(/^0/, '+44 '));
      expect(phone.store.jobs.length).toBeGreaterThanOrEqual(3);
      expect(phone.store.optOutHashed).toBe(true);
      expect(phone.store.embeddings).toBe(1);
      expect(phone.files.rewritten.length).toBe(2);
      const name = await forget(h, 'Jane Doe');
      const email = await forget(h, 'JANE.DOE@example.com');
      expect(name.store.jobs.length).toBeGreaterThan(0);
      expect(email.store.jobs.length).toBeGreaterThan(0);

      expect(traces(h.dir, [...PHONE_FORMS, ...NAME_FORMS, ...EMAIL_FORMS])).toEqual([]);
      // What was not theirs is still there.
      expect(traces(h.dir, ['7946 0999', 'catalogue']).length).toBeGreaterThan(0);
      // (A summary that cut the address short, "write to Jane.", keeps that fragment: it is not the value.)
      for (const words of ['Doe', '0123', 'example.com']) expect(h.engine.search(words, { limit: 50 }), words).toEqual([]);
      expect(h.engine.search('catalogue', { limit: 50 }).length).toBeGreaterThan(0);

      // Still opted out: a new batch to them leaves them out, as before.
      expect(h.engine.optOuts.list().map((o) => o.recipient)).toEqual([expect.stringMatching(/^forgotten:[0-9a-f]{64}$/)]);
      const again = join(own.path, 'again.csv');
      writeFileSync(again, 'to,text\r\n+44 2079 460123,"Hello again"\r\n+44 20 7946 0999,"Hello Max"\r\n');
      const refused = await h.engine.createBatch({ capability: 'channel', paths: [again], allowResend: true });
      expect(refused.batch?.total).toBe(1);
      expect(JSON.stringify(refused.problems)).toMatch(/opt-out/);
      expect(h.engine.optOuts.find('+442079460123')).not.toBeNull();
    } finally {
      own.cleanup();
    }
  });
});
