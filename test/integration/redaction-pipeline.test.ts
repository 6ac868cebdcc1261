// Issue 44's "done when" for redaction, checked at the HTTP level: a transcribe -> text:summary ->
// crm:conversation pipeline with `redact: all` over recordings whose transcripts hold a card
// number, an IBAN, a phone number said as words, an e-mail address and a date of birth sends none
// of them to any later route. A proxy of the test's own on 127.0.0.1:0 sits between the engine
// and the sandbox and records every request body the API receives; the job's stored counts and
// the job dialog (through the contract) show what was taken out. And `redactStored`: the stored
// transcript, its search index and the kept answer hold none of them either.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/main/engine/engine';
import { connect, type Connection } from '../../src/main/compose/connect';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server';
import { encodeWav } from '../../src/sandbox/wav';
import { JobDetail } from '../../src/shared/contract-calls';
import { PERSONAL_DATA_KINDS } from '../../src/shared/privacy-kinds';
import { redactionGroups } from '../../src/renderer/src/jobs/redaction-lines';
import { noKeychain, TEST_CONFIG } from './harness-shared';

/** What the callers said, as the transcription writes it (the sandbox answers with a recording's script). */
const CALLS = [
  'Thanks for calling. My card number is 4111 1111 1111 1111 and the IBAN is DE89 3704 0044 0532 0130 00. ' +
    'Call me back on plus four four two oh seven nine four six oh nine five eight. ' +
    'My e-mail is john.smith@example.com and I was born on 12.03.1980.',
  'Hello, card 5500-0000-0000-0004, IBAN GB29 NWBK 6016 1331 9268 19, my number is plus four nine one five one, ' +
    'two three four five, six seven eight nine. Write to jane_doe@mail.example.org. Date of birth: 1985-07-24.',
];

/** Each value in every form it could travel in: as said, and as digits only (a route may get it reformatted). */
const SECRETS = [
  '4111 1111 1111 1111',
  '4111111111111111',
  'DE89 3704 0044 0532 0130 00',
  'DE89370400440532013000',
  'four four two oh seven nine four six',
  '2079460958',
  'john.smith@example.com',
  '12.03.1980',
  '5500-0000-0000-0004',
  '5500000000000004',
  'GB29 NWBK 6016 1331 9268 19',
  'GB29NWBK60161331926819',
  'four nine one five one',
  '4915123456789',
  'jane_doe@mail.example.org',
  '1985-07-24',
];

interface Recorded {
  path: string;
  body: string;
  idempotencyKey: string | undefined;
}

/**
 * A proxy that records each request (its path, body and idempotency key) and forwards it to the
 * sandbox. The answer to the first request to `loseFirst` is lost on the way back (the sandbox did
 * the work; the connection drops), so that item is sent again, as after a crash or a resume.
 */
async function recordingProxy(target: string, loseFirst: string | null = null): Promise<{ url: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  let lost = loseFirst === null;
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = req.headers['idempotency-key'];
      seen.push({ path: req.url ?? '', body: body.toString('latin1'), idempotencyKey: typeof key === 'string' ? key : undefined });
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
        if (!lost && req.url === loseFirst) {
          lost = true;
          answer.resume();
          answer.on('end', () => res.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Rig {
  dir: string;
  engine: Engine;
  conn: Connection;
  sb: SandboxHandle;
  proxy: Awaited<ReturnType<typeof recordingProxy>>;
}
const rigs: Rig[] = [];

afterEach(async () => {
  for (const r of rigs.splice(0)) {
    r.engine.close();
    await r.conn.close();
    await r.proxy.close();
    await r.sb.close();
    await rm(r.dir, { recursive: true, force: true });
  }
});

async function rig(loseFirst: string | null = null): Promise<Rig> {
  const dir = await mkdtemp(join(tmpdir(), 'batchdesk-redact-'));
  const sb = await startSandbox({ port: 0, seed: 1 });
  const proxy = await recordingProxy(sb.url, loseFirst);
  const env: NodeJS.ProcessEnv = { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey };
  const engine = Engine.open({ dataDir: join(dir, 'data'), secrets: noKeychain, env, config: TEST_CONFIG });
  const conn = await connect({ apiUrl: proxy.url, env, keys: engine.keys, dataDir: join(dir, 'data') });
  const r = { dir, engine, conn, sb, proxy };
  rigs.push(r);
  const calls = join(dir, 'calls');
  await mkdir(calls);
  // A second of near silence each, carrying its script as the sandbox reads it (WAV LIST/INFO ICMT).
  for (const [i, script] of CALLS.entries()) await writeFile(join(calls, `call-${i + 1}.wav`), encodeWav(new Int16Array(8000), 8000, script));
  return r;
}

const run = (r: Rig): Promise<void> => r.engine.run(r.conn.target, { batchIds: null, start: r.engine.unstarted() });

function jobsOf(
  r: Rig,
  batchId: string,
): { id: number; seq: number; request_body: string | null; idempotency_key: string; result_json: string | null; raw_response: string | null; state: string }[] {
  return r.engine.db.prepare(`SELECT * FROM jobs WHERE batch_id = ? ORDER BY seq`).all(batchId) as never;
}

describe('redaction of what leaves this computer, end to end', () => {
  it('a transcribe -> text:summary -> crm:conversation pipeline with redact all sends no personal data to any later route', async () => {
    // The first summary's answer is lost: that item goes again, with its stored body and key.
    const r = await rig('/v1/text');
    const created = await r.engine.createBatch({
      capability: 'transcribe',
      paths: [join(r.dir, 'calls')],
      then: [
        { capability: 'text', task: 'summary' },
        { capability: 'crm', record: 'conversation' },
      ],
      redact: [...PERSONAL_DATA_KINDS],
    });
    const [summaries, crm] = created.steps;
    if (!created.batch || !summaries || !crm) throw new Error('the pipeline was not created');
    await run(r);

    const later = r.proxy.seen.filter((s) => !s.path.startsWith('/v1/transcribe'));
    expect(later.filter((s) => s.path === '/v1/text')).toHaveLength(CALLS.length + 1);
    expect(later.filter((s) => s.path === '/v1/crm/conversation' || s.path.startsWith('/v1/crm'))).toHaveLength(CALLS.length);
    for (const s of later) for (const secret of SECRETS) expect(s.body, `${s.path} carried "${secret}"`).not.toContain(secret);
    // What the summaries got is the transcript with typed placeholders in place of each finding.
    const texts = later.filter((s) => s.path === '/v1/text').map((s) => (JSON.parse(s.body) as { input: string }).input);
    for (const t of texts) for (const p of ['[CARD]', '[IBAN]', '[PHONE]', '[EMAIL]', '[DOB]']) expect(t).toContain(p);
    expect(texts.join('\n')).toContain('Thanks for calling.');

    // The stored request is what was sent, under the stored key: the item whose answer was lost
    // went again with exactly the same body and key.
    const sends = jobsOf(r, summaries.id).map((j) => {
      const sent = r.proxy.seen.filter((s) => s.idempotencyKey === j.idempotency_key);
      for (const s of sent) expect(s.body).toBe(j.request_body);
      return sent.length;
    });
    expect(sends.sort()).toEqual([1, 2]);

    // The local copy stays complete: the stored transcripts hold what was said.
    const transcripts = jobsOf(r, created.batch.id).map((j) => j.result_json ?? '');
    expect(transcripts.join('\n')).toContain('4111 1111 1111 1111');

    // Counts per item, stored with the job, and shown in the job dialog through the contract.
    for (const j of jobsOf(r, summaries.id)) {
      expect(j.state).toBe('succeeded');
      const detail = JobDetail.parse(r.engine.jobDetail(j.id));
      const sent = detail.redactions.filter((t) => t.where === 'sent');
      expect(Object.fromEntries(sent.map((t) => [t.kind, t.count]))).toEqual({ cards: 1, iban: 1, phones: 1, emails: 1, 'dates-of-birth': 1 });
      expect(new Set(sent.map((t) => t.field))).toEqual(new Set(['input']));
      // The dialog's lines (RedactionCounts.tsx shows exactly these): kind and field, never the value.
      const shown = redactionGroups(detail.redactions);
      expect(shown.total).toBe(5);
      expect(shown.groups.map((g) => g.lines.map((l) => l.text))).toEqual([
        [
          '1 × [CARD] (cards) in input',
          '1 × [IBAN] (iban) in input',
          '1 × [PHONE] (phones) in input',
          '1 × [EMAIL] (emails) in input',
          '1 × [DOB] (dates-of-birth) in input',
        ],
      ]);
    }
    // And per batch.
    const batch = r.engine.redactions(summaries.id);
    expect(batch.sent).toEqual({ cards: 2, iban: 2, phones: 2, emails: 2, 'dates-of-birth': 2 });
    expect(batch.items).toBe(CALLS.length);
  });

  it('redactStored: the stored transcript, its search index and the kept answer hold none of it; the counts say where', async () => {
    const r = await rig();
    const created = await r.engine.createBatch({
      capability: 'transcribe',
      paths: [join(r.dir, 'calls')],
      then: [{ capability: 'text', task: 'summary' }],
      redact: [...PERSONAL_DATA_KINDS],
      redactStored: true,
    });
    if (!created.batch) throw new Error('not created');
    await run(r);
    const jobs = jobsOf(r, created.batch.id);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded']);
    for (const j of jobs) {
      for (const secret of SECRETS) {
        expect(j.result_json ?? '').not.toContain(secret);
        expect(j.raw_response ?? '').not.toContain(secret);
      }
      expect(j.result_json).toContain('[CARD]');
      const stored = r.engine.jobDetail(j.id).redactions.filter((t) => t.where === 'stored');
      expect(stored.filter((t) => t.field === 'text').map((t) => [t.kind, t.count])).toEqual(PERSONAL_DATA_KINDS.map((k) => [k, 1]));
    }
    // Search reads the stored copy: what was said around the data is found, the data is not.
    expect(r.engine.search('calling', { limit: 50 }).length).toBeGreaterThan(0);
    expect(r.engine.search('john.smith@example.com', { limit: 50 })).toEqual([]);
    expect(r.engine.search('4111', { limit: 50 })).toEqual([]);
    // Replacements made: each value once in a transcript's text and once in its timed segments.
    expect(r.engine.redactions(created.batch.id).stored).toEqual({ cards: 4, iban: 4, phones: 4, emails: 4, 'dates-of-birth': 4 });
  });

  it('a watched folder with redact all: every step of its batches keeps it, and nothing reaches the summary', async () => {
    const r = await rig();
    const folder = join(r.dir, 'calls');
    const added = r.engine.hotFolders.add({
      dir: folder,
      capability: 'transcribe',
      then: [{ capability: 'text', task: 'summary' }],
      redact: [...PERSONAL_DATA_KINDS],
    });
    expect(added).toMatchObject({ redact: [...PERSONAL_DATA_KINDS], redactStored: false });
    const taken: string[] = [];
    const session = r.engine.hotFolders.watch({ stableMs: 50, onEvent: (e) => (e.kind === 'taken' ? taken.push(e.batchId) : undefined) });
    try {
      await session.ready;
      for (let i = 0; taken.length < CALLS.length; i++) {
        if (i > 200) throw new Error('the recordings were not taken');
        await new Promise((ok) => setTimeout(ok, 50));
      }
    } finally {
      session.close();
    }
    const day = await r.engine.control.summary(taken[0] ?? '');
    expect(day.options).toEqual({ redact: [...PERSONAL_DATA_KINDS] });
    const next = await r.engine.control.summary(day.pipeline?.next[0] ?? '');
    expect(next.options).toMatchObject({ task: 'summary', redact: [...PERSONAL_DATA_KINDS] });
    await r.engine.run(r.conn.target, { batchIds: null, start: [] });
    const texts = r.proxy.seen.filter((s) => s.path === '/v1/text');
    expect(texts).toHaveLength(CALLS.length);
    for (const s of texts) for (const secret of SECRETS) expect(s.body).not.toContain(secret);
    expect(r.engine.redactions(next.id).sent).toEqual({ cards: 2, iban: 2, phones: 2, emails: 2, 'dates-of-birth': 2 });
  });
});
