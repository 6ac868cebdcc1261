// The request limit kept on a loaded machine: a channel key limited to 600 requests a minute in
// the sandbox (its own process, a sliding 60 s window that answers 429 above it), the same limit
// set in Batchdesk (`config set rpm 600`), `batchdesk run` on 1,300 messages while two busy
// processes keep both cores loaded. Figures from the engine's own attempts table: requests sent
// in the second minute (the first minute holds the token bucket's start-up burst), and 429s.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SandboxAdmin } from '../../src/sandbox/admin-client';
import { cliOk, runCli } from './cli-child';
import { messagesCsv, sandboxChild } from './dispatch';

type Report = (what: string, value: string, baseline: string, note?: string) => void;

const RPM = 600;
const MESSAGES = 1_300;

/** A process that keeps one core busy until killed. */
function burner(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) { Math.sqrt(Math.random()); }'], { stdio: 'ignore' });
}

export async function benchRate(o: { root: string; report: Report }): Promise<void> {
  const sb = await sandboxChild();
  const burners: ChildProcess[] = [];
  try {
    const admin = new SandboxAdmin(sb.url, sb.adminToken);
    const key = (await admin.listKeys()).find((k) => k.key === sb.channelKey);
    if (!key) throw new Error('the sandbox has no channel key');
    await admin.updateKey(key.id, { rpm: RPM });
    const dir = join(o.root, 'rate');
    await cliOk(['config', 'set', 'concurrency', '16', '--data-dir', dir]);
    await cliOk(['config', 'set', 'rpm', String(RPM), '--data-dir', dir]);
    const created = await cliOk(['batch', 'create', 'channel', messagesCsv(o.root, MESSAGES, 'rate'), '--json', '--data-dir', dir]);
    const id = (JSON.parse(created.stdout) as { batch: { id: string } | null }).batch?.id ?? '';
    burners.push(burner(), burner());
    const run = await runCli(['run', id, '--data-dir', dir, '--api-url', sb.url], {
      env: { BATCHDESK_API_KEY: sb.apiKey, BATCHDESK_CHANNEL_KEY: sb.channelKey },
    });
    if (run.code !== 0) throw new Error(`run exited ${run.code}\n${run.stderr}`);
    const db = new Database(join(dir, 'batchdesk.sqlite'), { readonly: true });
    const t0 = db.prepare(`SELECT MIN(started_at) FROM attempts`).pluck().get() as number;
    const sent = db.prepare(`SELECT COUNT(*) FROM attempts WHERE started_at >= ? AND started_at < ?`).pluck();
    const limited = db.prepare(`SELECT COUNT(*) FROM attempts WHERE http_status = 429 AND started_at >= ? AND started_at < ?`).pluck();
    const second = sent.get(t0 + 60_000, t0 + 120_000) as number;
    const first = sent.get(t0, t0 + 60_000) as number;
    const late429 = limited.get(t0 + 60_000, Number.MAX_SAFE_INTEGER) as number;
    const early429 = limited.get(t0, t0 + 60_000) as number;
    // The busiest 60 s window anywhere in the run: never above the limit.
    const times = db.prepare(`SELECT started_at FROM attempts WHERE http_status = 200 ORDER BY started_at`).pluck().all() as number[];
    db.close();
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] ?? 0) - (times[j] ?? 0) >= 60_000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    o.report(
      `rate limit ${RPM}/min kept, loaded machine`,
      `${(second / RPM).toFixed(3)}`,
      `${RPM}/min`,
      `requests sent in the second minute / limit (${second}); first minute ${first}; 429s after the first minute ${late429}, in it ${early429}; busiest 60 s window ${busiest} answered 200; both cores kept busy by two other processes; c=16, limit set in the sandbox and with \`config set rpm\``,
    );
  } finally {
    for (const b of burners) b.kill('SIGKILL');
    await sb.close();
  }
}
