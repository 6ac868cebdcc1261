// One loop or two (docs/architecture.md "Two stores behind one interface"): the local runner
// against a team worker's loop over the data folder's own store port (SqliteQueueStore, one
// transaction per transition), on the same batch against the same sandbox, in turn, A B B A ...,
// each arm in a Node process of its own (scripts/bench/store-loop-child.ts) timing its loop only.
// Under load the absolute figures swing; the ratio of each pair is what counts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliOk } from './cli-child';
import { messagesCsv, sandboxChild, type SandboxChild } from './dispatch';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const CHILD = fileURLToPath(new URL('./store-loop-child.ts', import.meta.url));

async function arm(mode: 'runner' | 'store', dir: string, id: string, sb: SandboxChild, c: number): Promise<{ ms: number; done: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir, id, sb.url, sb.channelKey, String(c)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${mode} arm exited ${code}: ${out}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { ms: number; done: number };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function benchStoreLoop(o: { root: string; report: Report; n?: number; rounds?: number }): Promise<void> {
  const n = o.n ?? 3_000;
  const rounds = o.rounds ?? 3;
  const sb = await sandboxChild();
  try {
    for (const c of [4, 16]) {
      // One batch made once, copied for every run: both arms send the same items with the same keys.
      const made = join(o.root, `loop-c${c}`);
      await cliOk(['config', 'set', 'concurrency', String(c), '--data-dir', made]);
      const r = await cliOk(['batch', 'create', 'channel', messagesCsv(o.root, n, `loop${c}`), '--json', '--allow-resend', '--data-dir', made]);
      const id = (JSON.parse(r.stdout) as { batch: { id: string } | null }).batch?.id;
      if (!id) throw new Error(`no batch: ${r.stdout.slice(0, 400)}`);
      const ratios: number[] = [];
      const runner: number[] = [];
      const store: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order: Array<'runner' | 'store'> = round % 2 === 0 ? ['runner', 'store'] : ['store', 'runner'];
        const got = new Map<string, { ms: number; done: number }>();
        for (const mode of order) {
          const dir = join(o.root, `loop-c${c}-${round}-${mode}`);
          cpSync(made, dir, { recursive: true });
          const res = await arm(mode, dir, id, sb, c);
          if (res.done !== n) throw new Error(`${mode} arm sent ${res.done} of ${n}`);
          got.set(mode, res);
        }
        const a = got.get('runner')?.ms ?? 0;
        const b = got.get('store')?.ms ?? 0;
        runner.push(a);
        store.push(b);
        ratios.push(a / b);
      }
      const rate = (ms: number): string => Math.round(n / (ms / 1000)).toLocaleString('en');
      o.report(
        `${n.toLocaleString('en')} channel sends, one loop over the store port vs the local runner (c=${c})`,
        `${rate(median(store))} jobs/s`,
        `${rate(median(runner))} jobs/s runner`,
        `store-port loop / runner speed, pair by pair: ${ratios.map((x) => x.toFixed(2)).join(' / ')} (median ${median(ratios).toFixed(2)}); loop time only, each arm in its own process, order alternated`,
      );
    }
  } finally {
    await sb.close();
  }
}
