// Speech and images a team's workers received, exported from another desk: each worker stores the
// answer's file in the shared store with the item's success, so `export --format files --store`
// writes every one as received, whichever machine got it. An item whose file the store does not
// have (a worker of an earlier version) is listed with the worker that has it; the rest are written.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { jobStates, keyEnv, query, startWorker, useTeamRig } from '../helpers/team-run';

const LINES = 24;

describe('team: speech and images exported from the shared store', () => {
  const rig = useTeamRig('batchdesk-team-speech-', { seed: 17 });

  /** `batch create CAPABILITY FILE --store` from the planner's desk: its id. */
  async function shared(capability: string, file: string, extra: string[]): Promise<string> {
    const { cluster, sb, dir } = rig();
    const storeUrl = await cluster.freshDatabase(capability);
    const r = await runCli(
      ['batch', 'create', capability, file, ...extra, '--store', storeUrl, '--data-dir', join(dir.path, `planner-${capability}`), '--api-url', sb.url],
      keyEnv(sb),
    );
    expect(r.code, r.stderr).toBe(0);
    const id = /Created batch (\S+)/.exec(r.stdout)?.[1] ?? '';
    expect(id).not.toBe('');
    return `${storeUrl}#${id}`;
  }

  /** Two workers (two "machines") send the batch; the files each one saved, by name. */
  async function sendWithTwo(storeUrl: string, id: string, tag: string): Promise<Map<string, { bytes: Buffer; worker: string }>> {
    const { sb, dir, live } = rig();
    const workers = [0, 1].map((i) => startWorker({ storeUrl, dataDir: join(dir.path, `${tag}-worker-${i}`), sb }));
    live.push(...workers);
    for (const w of workers) expect((await w.done).code).toBe(0);
    expect(await jobStates(storeUrl, id)).toEqual([{ state: 'succeeded', n: LINES }]);
    const saved = new Map<string, { bytes: Buffer; worker: string }>();
    for (const [i, w] of workers.entries()) {
      const folder = join(dir.path, `${tag}-worker-${i}`, 'outputs', id);
      let names: string[] = [];
      try {
        names = readdirSync(folder);
      } catch {
        // This worker got none of them.
      }
      for (const name of names) saved.set(name, { bytes: readFileSync(join(folder, name)), worker: w.tag });
    }
    return saved;
  }

  it('writes every item of a speech batch sent by two workers, as received, from a third desk', async () => {
    const { dir } = rig();
    const csv = join(dir.path, 'lines.csv');
    writeFileSync(csv, `name,text\n${Array.from({ length: LINES }, (_, i) => `greeting-${i},Hello caller number ${i}. Thank you for waiting.`).join('\n')}\n`);
    const [storeUrl = '', id = ''] = (await shared('tts', csv, ['--voice', 'alloy'])).split('#');
    const saved = await sendWithTwo(storeUrl, id, 'tts');
    expect(saved.size).toBe(LINES);
    // Both machines took part, so the export cannot have read one machine's folder.
    expect(new Set([...saved.values()].map((s) => s.worker)).size).toBe(2);

    const elsewhere = ['--data-dir', join(dir.path, 'accountant'), '--store', storeUrl];
    const out = join(dir.path, 'speech');
    const r = await runCli(['export', id, '--format', 'files', '--out', out, ...elsewhere]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote ${LINES} file(s) of ${id}`);
    const written = readdirSync(out).sort();
    expect(written).toEqual(Array.from({ length: LINES }, (_, i) => `greeting-${i}.wav`).sort());
    // Byte for byte what the worker that sent each item received.
    const received = [...saved.values()].map((s) => s.bytes.toString('base64')).sort();
    expect(written.map((n) => readFileSync(join(out, n)).toString('base64')).sort()).toEqual(received);

    // One item's file missing from the store (as from a worker of an earlier version): named, with
    // the worker that has it; every other item is still written.
    const [gone] = await query<{ seq: number; leased_by: string }>(
      storeUrl,
      `DELETE FROM job_files f USING jobs j WHERE j.id = f.job_id AND j.batch_id = $1 AND j.seq = 5 RETURNING j.seq, j.leased_by`,
      [id],
    );
    expect(gone?.seq).toBe(5);
    const again = join(dir.path, 'speech-again');
    const partial = await runCli(['export', id, '--format', 'files', '--out', again, ...elsewhere]);
    expect(partial.stdout + partial.stderr).toContain(`its saved answer greeting-4.wav is not in the shared store`);
    expect(partial.stdout + partial.stderr).toContain(`copy it from outputs/${id}/ in the data folder of the worker that sent it (${gone?.leased_by ?? ''})`);
    expect(readdirSync(again)).toHaveLength(LINES - 1);
  }, 120_000);

  it('writes the images of an image batch as received', async () => {
    const { dir } = rig();
    const prompts = join(dir.path, 'prompts.txt');
    writeFileSync(prompts, `${Array.from({ length: LINES }, (_, i) => `A lighthouse at dusk, study ${i}`).join('\n')}\n`);
    const [storeUrl = '', id = ''] = (await shared('image', prompts, ['--size', '512x512'])).split('#');
    const saved = await sendWithTwo(storeUrl, id, 'image');
    expect(saved.size).toBe(LINES);
    const out = join(dir.path, 'images');
    const r = await runCli(['export', id.slice(0, 8), '--format', 'files', '--out', out, '--data-dir', join(dir.path, 'designer')], {
      BATCHDESK_STORE: storeUrl,
    });
    expect(r.code, r.stderr).toBe(0);
    const written = readdirSync(out);
    expect(written).toHaveLength(LINES);
    expect(written.every((n) => n.endsWith('.png'))).toBe(true);
    const received = [...saved.values()].map((s) => s.bytes.toString('base64')).sort();
    expect(written.map((n) => readFileSync(join(out, n)).toString('base64')).sort()).toEqual(received);
  }, 120_000);
});
