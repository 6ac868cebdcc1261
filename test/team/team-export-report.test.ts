// `export --store` and `report --store`: a batch the team sent is exported from the shared store on
// any computer, as a batch of one's own data folder is (every item with its result: csv, json, txt,
// read page by page), and what the team spent is reported by client, key, batch and day. Formats
// made from this computer's own files are refused before the store is opened, saying why.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { runCli } from '../helpers/cli';
import { createSharedBatch, jobStates, keyEnv, startWorker, writeChannelCsv, useTeamRig } from '../helpers/team-run';
import { fileURLToPath } from 'node:url';

const RECORDINGS = fileURLToPath(new URL('../../resources/samples/recordings/', import.meta.url));

// More than one page (500 rows) of the store's jobs.
const ROWS = 620;

// Each part is a test of its own, with its own time: at once they ran some 25 commands within one
// 120 s, which a loaded machine (each command a second or more to start) did not always make.
// The times are bounds for commands that wait for nothing but the machine: generous, at load 15
// a command can take ten seconds to start.
describe('team: export and report --store', () => {
  const rig = useTeamRig('batchdesk-team-export-', { seed: 5 });
  // What the parts read: the messages batch a worker sent, and the recordings it transcribed.
  let storeUrl = '';
  let id = '';
  let callsId = '';
  let workerTag = '';
  let elsewhere: string[] = [];
  let env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    const { cluster, sb, dir, live } = rig();
    storeUrl = await cluster.freshDatabase('export');
    const csv = join(dir.path, 'customers.csv');
    writeChannelCsv(csv, ROWS);
    id = await createSharedBatch({ storeUrl, dataDir: join(dir.path, 'planner'), sb, csv, name: 'team export test' });
    const worker = startWorker({ storeUrl, dataDir: join(dir.path, 'worker'), sb });
    live.push(worker);
    workerTag = worker.tag;
    const ran = await worker.done;
    expect(ran.code, ran.stderr).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: ROWS }]);

    // A third computer: its own empty data folder, the store's URL from the environment.
    elsewhere = ['--data-dir', join(dir.path, 'accountant')];
    env = { BATCHDESK_STORE: storeUrl };
  }, 600_000);

  it('exports a shared batch as csv, json and txt from another computer, every item once in order', async () => {
    const { dir } = rig();
    const out = join(dir.path, 'results.csv');
    const r = await runCli(['export', id.slice(0, 8), '--format', 'csv', '--out', out, ...elsewhere], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote ${ROWS} item(s) of ${id} (the shared store postgresql://`);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((row) => Number(row.item))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(rows.every((row) => row.state === 'succeeded' && row.message_id !== '')).toBe(true);
    // A phone number shows as text in a spreadsheet (csvField), never as a number or a sum.
    expect(rows[7]).toMatchObject({ to: "'+442000000007", cost_eur: '0.0050' });
    expect(new Set(rows.map((row) => row.idempotency_key)).size).toBe(ROWS);
    // Which worker sent each item ("host pid", as status --store names it).
    expect(rows.every((row) => row.worker === workerTag)).toBe(true);

    const json = join(dir.path, 'results.json');
    expect((await runCli(['export', id, '--format', 'json', '--out', json, '--store', storeUrl, ...elsewhere])).code).toBe(0);
    const items = JSON.parse(readFileSync(json, 'utf8')) as { item: number; cost_eur: number; state: string }[];
    expect(items).toHaveLength(ROWS);
    expect(items[0]).toMatchObject({ item: 1, state: 'succeeded', cost_eur: 0.005 });

    const txt = join(dir.path, 'results.txt');
    expect((await runCli(['export', id, '--format', 'txt', '--out', txt, ...elsewhere], env)).code).toBe(0);
    const blocks = readFileSync(txt, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('=== '));
    expect(blocks).toHaveLength(ROWS);
    // Sent to the sandbox, which delivers to nobody: said (A21).
    expect(blocks[0]).toMatch(/^=== customers.csv row 2 \[succeeded, made up by the sandbox\] to \+442000000000 message_id msg_/);
  }, 300_000);

  it('refuses files for a messages batch and a batch the store does not have, saying what to do', async () => {
    const { dir } = rig();
    // A messages batch has no file per item, shared or not: said, with what to use instead.
    const files = await runCli(['export', id, '--format', 'files', '--out', join(dir.path, 'files'), ...elsewhere], env);
    expect(files.code).not.toBe(0);
    expect(files.stderr).toContain('results have no file per item');
    expect(files.stderr).toContain('--format csv');

    // A batch the store does not have: named, with where to look.
    const missing = await runCli(['export', 'bnothere', '--format', 'csv', '--out', join(dir.path, 'x.csv'), ...elsewhere], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No batch "bnothere" in the shared store');
  }, 300_000);

  it('reports what the team spent by batch, day, key and client', async () => {
    // Every message once, at 0.0050 each, billed to no client, paid by the channel key.
    const byBatch = await runCli(['report', '--by', 'batch', '--format', 'json', ...elsewhere], env);
    expect(byBatch.code, byBatch.stderr).toBe(0);
    const report = JSON.parse(byBatch.stdout) as {
      store: string;
      items: number;
      total_eur: string;
      rows: { group: string; label: string; items: number; cost_eur: string }[];
    };
    expect(report.store).toContain('postgresql://');
    expect(report).toMatchObject({ items: ROWS, total_eur: (ROWS * 0.005).toFixed(4) });
    expect(report.rows).toEqual([expect.objectContaining({ group: id, label: 'team export test', items: ROWS })]);
    const byDay = await runCli(['report', '--by', 'day', '--format', 'csv', '--store', storeUrl, ...elsewhere]);
    expect(byDay.code, byDay.stderr).toBe(0);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(byDay.stdout).toContain(day);
    const byKey = await runCli(['report', '--by', 'key', ...elsewhere], env);
    expect(byKey.stdout).toMatch(/^Spent by the team, the shared store postgresql:\/\//);
    expect(byKey.stdout).toMatch(new RegExp(`total\\s+${ROWS}\\s+€${(ROWS * 0.005).toFixed(2)}`));
    const noSuchClient = await runCli(['report', '--by', 'batch', '--client', 'Acme', ...elsewhere], env);
    expect(noSuchClient.code).toBe(2);
    expect(noSuchClient.stderr).toContain('No batch is billed to the client "Acme"; clients with spend: "" (no client)');
  }, 300_000);

  // After the report above: these add the team's recordings to the store.
  describe('recordings the team transcribed', () => {
    beforeAll(async () => {
      const { sb, dir, live } = rig();
      // Recordings sent by the team, for their subtitles, transcript files and search.
      const calls = await runCli(
        ['batch', 'create', 'transcribe', RECORDINGS, '--name', 'calls', '--store', storeUrl, '--data-dir', join(dir.path, 'planner'), '--api-url', sb.url],
        keyEnv(sb),
      );
      expect(calls.code, calls.stderr).toBe(0);
      callsId = /Created batch (\S+)/.exec(calls.stdout)?.[1] ?? '';
      const transcriber = startWorker({ storeUrl, dataDir: join(dir.path, 'worker'), sb });
      live.push(transcriber);
      expect((await transcriber.done).code).toBe(0);
    }, 300_000);

    it("exports the team's recordings as subtitles and transcript files", async () => {
      const { dir } = rig();
      const srtDir = join(dir.path, 'subtitles');
      const srt = await runCli(['export', callsId, '--format', 'srt', '--out', srtDir, ...elsewhere], env);
      expect(srt.code, srt.stderr).toBe(0);
      expect(srt.stdout).toContain(`Wrote 3 SubRip subtitle file(s) (.srt) of ${callsId} (the shared store`);
      expect(readdirSync(srtDir).sort()).toEqual(['call-001-double-charge.srt', 'call-002-late-parcel.srt', 'call-003-cancel-plan.srt']);
      expect(readFileSync(join(srtDir, 'call-001-double-charge.srt'), 'utf8')).toMatch(/^1\r?\n00:00:00,000 --> /);
      const transcripts = join(dir.path, 'transcripts');
      expect((await runCli(['export', callsId, '--format', 'files', '--out', transcripts, ...elsewhere], env)).code).toBe(0);
      expect(
        readdirSync(transcripts)
          .filter((f) => f.startsWith('call-002-late-parcel.'))
          .sort(),
      ).toEqual(['call-002-late-parcel.json', 'call-002-late-parcel.srt', 'call-002-late-parcel.txt', 'call-002-late-parcel.vtt']);
    }, 300_000);

    it("finds the team's results by their words from a third computer", async () => {
      // The team's results by their words, from the third computer: a transcript, a message by its
      // words and by its number as people write it, one batch only.
      const charged = await runCli(['search', 'charged twice', '--json', ...elsewhere], env);
      expect(charged.code, charged.stderr).toBe(0);
      const chargedHits = (JSON.parse(charged.stdout) as { hits: { batch: string; source: string; snippet: string }[] }).hits;
      expect(chargedHits[0]).toMatchObject({ batch: callsId });
      expect(chargedHits[0]?.source).toContain('call-001-double-charge.wav');
      expect(chargedHits[0]?.snippet).toMatch(/\*\*charged\*\* \*\*twice\*\*/i);
      const code = await runCli(['search', 'code 1007', '--batch', id.slice(0, 8), ...elsewhere], env);
      expect(code.stdout).toContain(`${id}  team export test (channel)`);
      expect(code.stdout).toContain('item 8  customers.csv row 9');
      const byNumber = await runCli(['search', '+44 20 0000 0007', '--json', ...elsewhere], env);
      expect((JSON.parse(byNumber.stdout) as { hits: { item: number }[] }).hits.map((h) => h.item)).toEqual([8]);
    }, 300_000);

    it("finds the team's transcripts by meaning once `index --store` embedded them, paying for nothing twice", async () => {
      const { sb, admin } = rig();
      // By meaning: nothing embedded yet, said with what to do; `index --store` embeds the team's
      // transcripts (the vectors go to the store, this computer sends as a worker); then a paraphrase
      // finds the call from the third computer, and indexing again sends nothing twice.
      const searchEnv = { ...env, ...keyEnv(sb) };
      const api = ['--api-url', sb.url];
      const before = await runCli(['search', 'billed two times', '--semantic', ...elsewhere, ...api], searchEnv);
      expect(before.stderr).toContain('No results are embedded yet');
      expect(before.stderr).toContain(`\`batchdesk index <batch-id> ${elsewhere.join(' ')} ${api.join(' ')}\``);
      const indexed = await runCli(['index', callsId, '--yes', ...elsewhere, ...api], searchEnv);
      expect(indexed.code, indexed.stderr).toBe(0);
      expect(indexed.stdout).toMatch(/Embedding the results of \S+ in the team's batch \S+ \(3 item\(s\)\)/);
      expect(indexed.stdout).toContain(`--semantic --batch ${callsId} ${elsewhere.join(' ')}`);
      const meaning = await runCli(['search', 'billed two times', '--semantic', '--json', ...elsewhere, ...api], searchEnv);
      expect(meaning.code, meaning.stderr).toBe(0);
      const meaningHits = (JSON.parse(meaning.stdout) as { hits: { batch: string; source: string }[] }).hits;
      expect(meaningHits[0]).toMatchObject({ batch: callsId, source: expect.stringMatching(/call-001-double-charge\.wav$/) });
      const billedBefore = (await admin.usage()).rows.find((u) => u.rate_item === 'embeddings')?.requests;
      // A team batch with nothing embedded: said, with the command for it, and no query paid for.
      const notEmbedded = await runCli(['search', 'billed two times', '--semantic', '--batch', id, ...elsewhere, ...api], searchEnv);
      expect(notEmbedded.stderr).toContain(`Nothing of batch ${id} is embedded yet`);
      expect(notEmbedded.stderr).toContain(`batchdesk index ${id} ${elsewhere.join(' ')}`);
      expect((await admin.usage()).rows.find((u) => u.rate_item === 'embeddings')?.requests).toBe(billedBefore);
      const again = await runCli(['index', callsId, '--yes', ...elsewhere, ...api], searchEnv);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain("are embedded in the team's batch");
      // The query itself is one embeddings request each time; the items are not embedded again.
      expect((await admin.usage()).rows.find((u) => u.rate_item === 'embeddings')?.requests).toBe(billedBefore);
    }, 300_000);
  });
});
