// Retention for a team's batches (retention/team-retention.ts), with a fake clock: the rule a batch
// moved to the store with (its flags, else the default of the computer that made it) deletes the
// file a worker kept in the store and the files this computer wrote for the batch after the files
// period, and the result text (search entry, embedding) after the results period, keeping the
// audit (request, cost, idempotency key, attempts); an unfinished item keeps everything. Each
// deletion is logged once in the store with the worker that made it, however many workers run it.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgQueueStore } from '../../src/main/engine/store/pg/pg-queue-store';
import { FakeClock } from '../helpers/fake-clock';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster';
import { applyTeamRetention, setTeamRetentionDefault, setTeamRule, teamRetentionLog, teamRuleOfBatch } from '../../src/main/engine/retention/team-retention';
import { DAY_MS } from '../../src/main/engine/retention/retention-plan';
import { startHarness, writeText } from '../integration/harness';
import { hostname } from 'node:os';
import { systemClock } from '../../src/main/engine/clock';
import { assertBuilt, runCli } from '../helpers/cli';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
});
afterAll(() => cluster?.destroy());

const line = (row: number, text: string) => JSON.stringify({ row, line: true, input: text, name: null, fields: {}, output: `line-${row}.wav` });

describe("retention in a team's store", () => {
  it('deletes files after their period and result text after its own, keeps the audit, logs each once', async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const store = await PgQueueStore.open({ url, clock, worker: 'host-a 1' });
    const here = mkdtempSync(join(tmpdir(), 'batchdesk-team-retention-'));
    try {
      await store.createBatch({
        id: 'b1',
        name: 'greetings',
        capability: 'tts',
        tier: 'standard',
        channel: null,
        options: {},
        budget: null,
        creator: 'test 1',
      });
      const job = (seq: number, text: string) => ({
        seq,
        idempotencyKey: `k-${seq}`,
        fingerprint: BigInt(seq),
        source: `line ${seq}`,
        payloadJson: line(seq, text),
        requestBody: JSON.stringify({ input: text }),
        estimatedUnits: 1,
        estimatedCost: 50,
      });
      await store.addJobs('b1', [job(1, 'Hello caller'), job(2, 'Thank you for waiting')]);
      await store.seal('b1', { total: 2, estimatedUnits: 2, estimatedCost: 100 });
      await setTeamRule(store.pool, 'b1', { keepFilesDays: 10, keepResultsDays: 30, filesFrom: 'batch b1', resultsFrom: 'batch b1' });
      await store.start('b1');
      const [first] = await store.claim('b1', 1, 60_000);
      if (!first) throw new Error('nothing claimed');
      await store.succeed(first, {
        units: 1,
        cost: 50,
        resultJson: JSON.stringify({ text: 'Hello caller', voice: 'alloy' }),
        rawResponse: '{"ok":true}',
        httpStatus: 200,
        vector: new Float32Array([1, 2, 3]),
        file: { name: 'line-1.wav', bytes: Buffer.from('RIFF hello') },
      });
      // What this computer wrote for the team's batch: its output and an export of it.
      const outputs = join(here, 'outputs', 'b1');
      mkdirSync(outputs, { recursive: true });
      writeFileSync(join(outputs, 'line-1.wav'), 'RIFF hello');
      writeFileSync(join(outputs, 'line-2.wav'), 'RIFF not yet');
      mkdirSync(join(here, 'exports'));
      const exported = join(here, 'exports', 'b1-results.csv');
      writeFileSync(exported, 'source,text\n');
      const seconds = clock.now() / 1000;
      utimesSync(exported, seconds, seconds);
      const row = async () =>
        (await store.pool.query(`SELECT result_json, raw_response, request_body, cost, idempotency_key, state FROM jobs WHERE seq = 1 AND batch_id = 'b1'`))
          .rows[0];

      clock.advance(9 * DAY_MS);
      expect((await applyTeamRetention(store.pool, here, clock.now(), 'host-a 1')).done).toEqual([]);

      clock.advance(2 * DAY_MS);
      const dry = await applyTeamRetention(store.pool, here, clock.now(), 'host-a 1', { dryRun: true });
      expect(dry.done.map((d) => [d.kind, d.what])).toEqual([
        ['output', 'job 1 (line 1): its file in the shared store'],
        ['output', join(outputs, 'line-1.wav')],
        ['export', exported],
      ]);
      expect(existsSync(exported)).toBe(true);
      const files = await applyTeamRetention(store.pool, here, clock.now(), 'host-a 1');
      expect(files.done).toHaveLength(3);
      expect(files.problems).toEqual([]);
      expect((await store.pool.query(`SELECT count(*)::int AS n FROM job_files`)).rows[0].n).toBe(0);
      expect(existsSync(join(outputs, 'line-1.wav'))).toBe(false);
      expect(existsSync(exported)).toBe(false);
      // The unfinished item keeps its file; the result text stays until its own period.
      expect(existsSync(join(outputs, 'line-2.wav'))).toBe(true);
      expect((await row()).result_json).not.toBeNull();
      // Another worker at it meanwhile finds nothing left and logs nothing twice.
      expect((await applyTeamRetention(store.pool, mkdtempSync(join(tmpdir(), 'batchdesk-team-b-')), clock.now(), 'host-b 2')).done).toEqual([]);

      clock.advance(20 * DAY_MS);
      const results = await applyTeamRetention(store.pool, here, clock.now(), 'host-b 2');
      expect(results.done.map((d) => [d.kind, d.what, d.rule])).toEqual([['result', 'job 1 (line 1)', 'keep-results-days 30 (batch b1)']]);
      expect(await row()).toEqual({
        result_json: null,
        raw_response: null,
        request_body: JSON.stringify({ input: 'Hello caller' }),
        cost: 50,
        idempotency_key: 'k-1',
        state: 'succeeded',
      });
      expect((await store.pool.query(`SELECT count(*)::int AS n FROM vectors`)).rows[0].n).toBe(0);
      expect(
        (await store.pool.query(`SELECT count(*)::int AS n FROM job_text WHERE job_id = (SELECT id FROM jobs WHERE idempotency_key = 'k-1')`)).rows[0].n,
      ).toBe(0);
      const second = (await store.pool.query(`SELECT payload_json, state FROM jobs WHERE idempotency_key = 'k-2'`)).rows[0];
      expect(second).toEqual({ payload_json: line(2, 'Thank you for waiting'), state: 'queued' });

      const log = await teamRetentionLog(store.pool, 10);
      expect(log.map((e) => [e.kind, e.what, e.worker, e.batchId])).toEqual([
        ['output', 'job 1 (line 1): its file in the shared store', 'host-a 1', 'b1'],
        ['output', join(outputs, 'line-1.wav'), 'host-a 1', 'b1'],
        ['export', exported, 'host-a 1', 'b1'],
        ['result', 'job 1 (line 1)', 'host-b 2', 'b1'],
      ]);
      expect(log.every((e) => e.rule.startsWith('keep-'))).toBe(true);
      // Each entry keeps its rule by its parts beside the words (migration 23), as the window says it.
      const b1 = { who: 'batch', id: 'b1', firstStep: false } as const;
      const filesPart = [{ what: 'files', days: 10, origin: b1 }];
      expect(log.map((e) => e.parts)).toEqual([filesPart, filesPart, filesPart, [{ what: 'results', days: 30, origin: b1 }]]);
      expect((await store.pool.query(`SELECT count(*)::int AS n FROM retention_log WHERE rule_parts IS NULL`)).rows[0].n).toBe(0);
      // An entry an older version logged has only its words: its parts are read from them, once, in the engine.
      await store.pool.query(
        `INSERT INTO retention_log (at, kind, what, rule, batch_id, job_id, worker) VALUES (1, 'result', 'job 9 (line 9)', $1, 'b1', 9, 'old 1'), (2, 'result', 'job 8', 'odd words', 'b1', 8, 'old 1')`,
        ['keep-results-days 100 (the default of host-c, the computer that made the batch)'],
      );
      expect((await teamRetentionLog(store.pool, 2)).map((e) => e.parts)).toEqual([
        [{ what: 'results', days: 100, origin: { who: 'creatorDefault', computer: 'host-c' } }],
        null,
      ]);
    } finally {
      await store.close();
      rmSync(here, { recursive: true, force: true });
    }
  });

  it("retention run and log --store: the store's result text, this computer's files, each deletion with its worker", async () => {
    assertBuilt();
    const url = await cluster.freshDatabase();
    const store = await PgQueueStore.open({ url, clock: systemClock, worker: 'setup 1' });
    const here = mkdtempSync(join(tmpdir(), 'batchdesk-team-retention-cli-'));
    try {
      await store.createBatch({
        id: 'b2',
        name: 'greetings',
        capability: 'tts',
        tier: 'standard',
        channel: null,
        options: {},
        budget: null,
        creator: 'test 1',
      });
      await store.addJobs('b2', [
        {
          seq: 1,
          idempotencyKey: 'k2-1',
          fingerprint: 21n,
          source: 'line 1',
          payloadJson: line(1, 'Hello'),
          requestBody: '{}',
          estimatedUnits: 1,
          estimatedCost: 5,
        },
      ]);
      await store.seal('b2', { total: 1, estimatedUnits: 1, estimatedCost: 5 });
      await setTeamRule(store.pool, 'b2', { keepFilesDays: null, keepResultsDays: 3, filesFrom: 'none', resultsFrom: 'batch b2' });
      await store.start('b2');
      const [job] = await store.claim('b2', 1, 60_000);
      if (!job) throw new Error('nothing claimed');
      await store.succeed(job, { units: 1, cost: 5, resultJson: '{"text":"Hello"}', rawResponse: '{}', httpStatus: 200 });
      const args = ['--store', url, '--data-dir', here];
      const none = await runCli(['retention', 'run', '--dry-run', ...args]);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toContain('Nothing is due for deletion in the shared store');
      // Four days later, as far as the item knows.
      await store.pool.query(`UPDATE jobs SET finished_at = finished_at - $1`, [4 * 86_400_000]);
      const dry = await runCli(['retention', 'run', '--dry-run', ...args]);
      expect(dry.stdout).toContain('would delete result text: job');
      expect(dry.stdout).toContain('by keep-results-days 3 (batch b2)');
      const run = await runCli(['retention', 'run', ...args]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`1 deletion(s), each in \`batchdesk retention log --store ${url} --data-dir ${here}\``);
      expect((await store.pool.query(`SELECT result_json FROM jobs WHERE idempotency_key = 'k2-1'`)).rows[0].result_json).toBeNull();
      const log = await runCli(['retention', 'log', ...args]);
      expect(log.stdout).toMatch(/result text\s+job \d+ \(line 1\)\n    by keep-results-days 3 \(batch b2\), deleted by worker \S+ \d+/);
      const json = JSON.parse((await runCli(['retention', 'log', '--json', ...args])).stdout) as { log: { kind: string; worker: string }[] };
      expect(json.log.map((e) => e.kind)).toEqual(['result']);
    } finally {
      await store.close();
      rmSync(here, { recursive: true, force: true });
    }
  });

  it("moves a batch's rule into the store with it, the default named as the computer's that made it", async () => {
    const url = await cluster.freshDatabase();
    const h = await startHarness();
    const store = await PgQueueStore.open({ url, clock: new FakeClock(), worker: 'planner 1' });
    try {
      h.engine.settings.set('keep_files_days', '7');
      const txt = await writeText(h, 'lines.txt', 'Hello caller\nThank you for waiting\n');
      const id = (await h.engine.createBatch({ capability: 'tts', paths: [txt], keepResultsDays: 2 })).batch?.id ?? '';
      await h.engine.handOver(id, store);
      const rules = (await store.pool.query(`SELECT batch_id, keep_files_days, keep_results_days, files_from, results_from FROM retention_rules`)).rows;
      expect(rules).toEqual([
        {
          batch_id: id,
          keep_files_days: 7,
          keep_results_days: 2,
          files_from: `the default of ${hostname()}, the computer that made the batch`,
          results_from: `batch ${id}`,
        },
      ]);
      // The team's default outranks what the batch carried from its creator's default, never its own flag.
      await setTeamRetentionDefault(store.pool, 'keep_files_days', 3);
      await setTeamRetentionDefault(store.pool, 'keep_results_days', 40);
      expect(await teamRuleOfBatch(store.pool, id)).toEqual({ keepFilesDays: 3, keepResultsDays: 2, filesFrom: 'team default', resultsFrom: `batch ${id}` });
    } finally {
      await store.close();
    }
  });

  it("the team's default: read at each run, so batches made before it follow it; a batch's own rule and a carried default's place", async () => {
    const url = await cluster.freshDatabase();
    const clock = new FakeClock();
    const store = await PgQueueStore.open({ url, clock, worker: 'host-a 1' });
    const here = mkdtempSync(join(tmpdir(), 'batchdesk-team-default-'));
    try {
      // Three batches of one finished item each: one with its own rule, one that carried its
      // creator's default, one with no rule at all; all made before the team has a default.
      for (const id of ['own', 'carried', 'bare']) {
        await store.createBatch({ id, name: id, capability: 'tts', tier: 'standard', channel: null, options: {}, budget: null, creator: 'test 1' });
        await store.addJobs(id, [
          {
            seq: 1,
            idempotencyKey: `k-${id}`,
            fingerprint: BigInt(id.length * 1000 + id.charCodeAt(0)),
            source: `line of ${id}`,
            payloadJson: line(1, `Hello ${id}`),
            requestBody: '{}',
            estimatedUnits: 1,
            estimatedCost: 5,
          },
        ]);
        await store.seal(id, { total: 1, estimatedUnits: 1, estimatedCost: 5 });
        await store.start(id);
        const [job] = await store.claim(id, 1, 60_000);
        if (!job) throw new Error('nothing claimed');
        await store.succeed(job, { units: 1, cost: 5, resultJson: `{"text":"Hello ${id}"}`, rawResponse: '{}', httpStatus: 200 });
      }
      await setTeamRule(store.pool, 'own', { keepFilesDays: null, keepResultsDays: 30, filesFrom: 'none', resultsFrom: 'batch own' });
      await setTeamRule(store.pool, 'carried', {
        keepFilesDays: null,
        keepResultsDays: 100,
        filesFrom: 'none',
        resultsFrom: 'the default of host-c, the computer that made the batch',
        resultsCarried: true,
      });
      const kept = async (): Promise<string[]> =>
        (await store.pool.query<{ batch_id: string }>(`SELECT batch_id FROM jobs WHERE result_json IS NOT NULL ORDER BY batch_id`)).rows.map((r) => r.batch_id);

      clock.advance(6 * DAY_MS);
      expect((await applyTeamRetention(store.pool, here, clock.now(), 'host-a 1')).done).toEqual([]);
      expect(await teamRuleOfBatch(store.pool, 'bare')).toBeNull();

      await setTeamRetentionDefault(store.pool, 'keep_results_days', 5);
      expect(await teamRuleOfBatch(store.pool, 'bare')).toEqual({ keepFilesDays: null, keepResultsDays: 5, filesFrom: 'none', resultsFrom: 'team default' });
      const dropped = await applyTeamRetention(store.pool, here, clock.now(), 'host-b 2');
      expect(dropped.done.map((d) => [d.batchId, d.kind, d.rule])).toEqual([
        ['bare', 'result', 'keep-results-days 5 (team default)'],
        ['carried', 'result', 'keep-results-days 5 (team default)'],
      ]);
      expect(dropped.done.map((d) => d.parts)).toEqual([
        [{ what: 'results', days: 5, origin: { who: 'teamDefault' } }],
        [{ what: 'results', days: 5, origin: { who: 'teamDefault' } }],
      ]);
      expect(await kept()).toEqual(['own']);
      expect((await teamRetentionLog(store.pool, 10)).map((e) => [e.batchId, e.rule, e.worker])).toEqual([
        ['bare', 'keep-results-days 5 (team default)', 'host-b 2'],
        ['carried', 'keep-results-days 5 (team default)', 'host-b 2'],
      ]);

      // A longer default never outlasts a batch's own rule: its own 30 days hold.
      await setTeamRetentionDefault(store.pool, 'keep_results_days', 365);
      clock.advance(25 * DAY_MS);
      const own = await applyTeamRetention(store.pool, here, clock.now(), 'host-a 1');
      expect(own.done.map((d) => [d.batchId, d.rule])).toEqual([['own', 'keep-results-days 30 (batch own)']]);

      // 0 takes the default away: the carried default is the batch's rule again.
      await setTeamRetentionDefault(store.pool, 'keep_results_days', 0);
      expect(await teamRuleOfBatch(store.pool, 'carried')).toMatchObject({
        keepResultsDays: 100,
        resultsFrom: 'the default of host-c, the computer that made the batch',
      });
      expect(await teamRuleOfBatch(store.pool, 'bare')).toBeNull();
    } finally {
      await store.close();
      rmSync(here, { recursive: true, force: true });
    }
  });

  it('config set keep_*_days --store sets the team default; status, retention run --dry-run, log and watch list name it', async () => {
    assertBuilt();
    const url = await cluster.freshDatabase();
    const store = await PgQueueStore.open({ url, clock: systemClock, worker: 'setup 1' });
    const here = mkdtempSync(join(tmpdir(), 'batchdesk-team-default-cli-'));
    try {
      await store.createBatch({
        id: 'b3',
        name: 'greetings',
        capability: 'tts',
        tier: 'standard',
        channel: null,
        options: {},
        budget: null,
        creator: 'test 1',
      });
      await store.addJobs('b3', [
        {
          seq: 1,
          idempotencyKey: 'k3-1',
          fingerprint: 31n,
          source: 'line 1',
          payloadJson: line(1, 'Hello'),
          requestBody: '{}',
          estimatedUnits: 1,
          estimatedCost: 5,
        },
      ]);
      await store.seal('b3', { total: 1, estimatedUnits: 1, estimatedCost: 5 });
      await store.start('b3');
      const [job] = await store.claim('b3', 1, 60_000);
      if (!job) throw new Error('nothing claimed');
      await store.succeed(job, { units: 1, cost: 5, resultJson: '{"text":"Hello"}', rawResponse: '{}', httpStatus: 200 });
      await store.pool.query(`UPDATE jobs SET finished_at = finished_at - $1`, [4 * 86_400_000]);
      const args = ['--store', url, '--data-dir', here];

      const before = await runCli(['retention', 'run', '--dry-run', ...args]);
      expect(before.stdout).toContain('Nothing is due for deletion in the shared store');
      expect(before.stdout).toContain("The team has no default rule: a team's batch without its own keeps what it was made with");

      const set = await runCli(['config', 'set', 'keep_results_days', '3', ...args]);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain("keep_results_days = 3: the team's default in the shared store");
      // Kept in the store, not in this computer's data folder.
      const list = await runCli(['config', 'list', ...args]);
      expect(list.stdout).toMatch(/The team's default retention rule, in the shared store .*\nkeep_files_days\s+0 \(kept\)[^\n]*\nkeep_results_days\s+3 /);
      expect((await runCli(['config', 'list', '--data-dir', here])).stdout).toMatch(/keep_results_days\s+0 \(kept\)/);
      const other = await runCli(['config', 'set', 'concurrency', '8', ...args]);
      expect(other.code).toBe(2);
      expect(other.stderr).toContain("concurrency is this computer's setting");

      const status = await runCli(['status', 'b3', ...args]);
      expect(status.stdout).toContain('retention: result text dropped after 3 days (team default)');
      const dry = await runCli(['retention', 'run', '--dry-run', ...args]);
      expect(dry.stdout).toContain('by keep-results-days 3 (team default)');
      expect(dry.stdout).toContain("The team's default (in the shared store ");
      expect(dry.stdout).toContain('for batches without a rule of their own: result text dropped after 3 days (team default;');
      const run = await runCli(['retention', 'run', ...args]);
      expect(run.code, run.stderr).toBe(0);
      const log = await runCli(['retention', 'log', ...args]);
      expect(log.stdout).toMatch(/result text\s+job \d+ \(line 1\)\n    by keep-results-days 3 \(team default\), deleted by worker/);

      const folder = mkdtempSync(join(tmpdir(), 'batchdesk-team-default-watch-'));
      const added = await runCli(['watch', 'add', folder, '--capability', 'transcribe', '--data-dir', here]);
      expect(added.code, added.stderr).toBe(0);
      const watches = await runCli(['watch', 'list', ...args]);
      expect(watches.stdout).toContain('retention: the defaults in the shared store');
      expect(watches.stdout).toContain('result text dropped after 3 days (team default)');
      expect((await runCli(['watch', 'list', '--data-dir', here])).stdout).toContain('retention: none: nothing is deleted');
      rmSync(folder, { recursive: true, force: true });
    } finally {
      await store.close();
      rmSync(here, { recursive: true, force: true });
    }
  });
});
