// `run --watch` reports a file that changed after it was sent (and does not send it again), and
// `watch resend FILE` sends its new version on purpose; a file outside every watched folder is
// refused with what to do instead.
import { copyFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';
import { INVOICES } from '../integration/harness';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(read: () => string, re: RegExp, ms = 30_000): Promise<void> {
  const by = Date.now() + ms;
  while (!re.test(read()) && Date.now() < by) await sleep(100);
}

describe('watch resend', () => {
  const dir = tempDir('batchdesk-watch-resend-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('a changed file is reported by run --watch, not sent; watch resend sends it', async () => {
    const scans = join(dir.path, 'scans');
    mkdirSync(scans);
    const data = ['--data-dir', join(dir.path, 'data')];
    expect((await runCli(['watch', 'add', scans, '--capability', 'ocr', ...data])).code).toBe(0);
    const file = join(scans, 'invoice.pdf');
    copyFileSync(join(INVOICES, 'invoice-aldenmoor-INV-2026-0012.pdf'), file);
    // The new version is scanned elsewhere before run --watch starts and moved in over the old
    // one (a PDF written in place moments before it is seen waits the long quiet time).
    const next = join(dir.path, 'rescanned.pdf');
    copyFileSync(join(INVOICES, 'invoice-copperfinch-INV-2026-0047.pdf'), next);
    await sleep(400);
    const run = startCli(['run', '--watch', '--settle', '0.3', ...data]);
    let out = '';
    run.child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    run.child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
    try {
      await waitFor(() => out, /\+ .*invoice\.pdf -> batch/);
      renameSync(next, file);
      await waitFor(() => out, /changed after it was sent/);
    } finally {
      run.child.kill('SIGINT');
      await run.done;
    }
    expect(out).toMatch(
      /! .*invoice\.pdf changed after it was sent .*not sent, so it is not paid for twice\. To send it as well: `batchdesk watch resend \S+invoice\.pdf --data-dir \S+`\./,
    );
    expect(out.match(/\+ .*invoice\.pdf -> batch/g)).toHaveLength(1);

    const resent = await runCli(['watch', 'resend', file, ...data]);
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toMatch(/^Sending this version of .*invoice\.pdf too: batch \w+, item 2\./);
    const again = await runCli(['watch', 'resend', file, ...data]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/same content as a file this folder already took/);
    const list = await runCli(['watch', 'list', '--json', ...data]);
    expect((JSON.parse(list.stdout) as { watches: { takenToday: number }[] }).watches[0]?.takenToday).toBe(2);
  });

  it('refuses a file outside every watched folder, saying what to do', async () => {
    const data = ['--data-dir', join(dir.path, 'data')];
    const r = await runCli(['watch', 'resend', join(dir.path, 'elsewhere.pdf'), ...data]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /elsewhere\.pdf is not in a watched folder\. `batchdesk watch list --data-dir \S+` shows them; a file elsewhere goes in a batch of its own/,
    );
  });
});
