// The progress line of `batchdesk run` says that the API keeps answering 429, instead of only an
// unknown ETA, with what to do: the built command line against a server whose every answer is a
// 429 with a Retry-After in 1970.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { json, startHostileServer, type HostileServer } from '../helpers/hostile-server';

const MESSAGES = join(process.cwd(), 'resources', 'samples', 'messages.csv');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('batchdesk run against an API that keeps answering 429', () => {
  const dir = tempDir('batchdesk-trouble-');
  let server: HostileServer | null = null;
  beforeAll(() => assertBuilt());
  afterEach(async () => server?.close());
  afterAll(() => dir.cleanup());

  it('says so on the progress line, beside the ETA, with what to do', async () => {
    const data = ['--data-dir', join(dir.path, 'data')];
    const created = await runCli(['batch', 'create', 'channel', MESSAGES, ...data]);
    const id = /Created batch (\S+)/.exec(created.stdout)?.[1] ?? '';
    server = await startHostileServer((_q, res) => json(res, 429, { error: { code: 'rate_limited' } }, { 'retry-after': 'Thu, 01 Jan 1970 00:00:00 GMT' }));
    const run = startCli(['run', id, '--api-url', server.url, ...data], { BATCHDESK_CHANNEL_KEY: 'ck_live_0a1b2c3d4e5f60718293a4b5c6d7e8f9' });
    let err = '';
    run.child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    // Said once the 429s have gone on for the slow-answer time (10 s).
    const by = Date.now() + 40_000;
    while (!err.includes('(API keeps answering 429)') && Date.now() < by) await sleep(100);
    run.child.kill('SIGINT');
    const done = await run.done;
    expect(done.code).toBe(130);
    const line = done.stderr.split('\n').find((l) => l.includes('(API keeps answering 429)')) ?? '';
    expect(line).toMatch(/ETA --:-- \(API keeps answering 429\)/);
    expect(line).toMatch(
      new RegExp(
        `\\| batch ${id}: the API keeps answering 429 \\(request limit reached\\): \\d+ answers without a result since \\d\\d:\\d\\d:\\d\\d\\. If another program uses the same key, lower the request limit \\(in the window: Keys & rates; on the command line: \`batchdesk config set rpm N\`\\)\\. An item that keeps waiting fails after 10 min \\(setting max_wait_minutes\\)\\.$`,
      ),
    );
  });
});
