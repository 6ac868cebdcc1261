import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileLogger } from '../../../src/main/engine/log/logger';
import { tempDir } from '../../helpers/temp-dir';

describe('FileLogger', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.cleanup());

  it('writes JSON lines and drops key, body and text fields even if a caller passes them', () => {
    const log = new FileLogger(dir.path);
    log.log('info', 'job.error', { job: 7, kind: 'auth', key: 'sk_live_secret', text: 'Hello Olivia', note: 'Bearer abc.def' });
    const [line] = readFileSync(join(dir.path, 'batchdesk.log'), 'utf8').trim().split('\n');
    const rec = JSON.parse(line ?? '{}') as Record<string, unknown>;
    expect(rec).toMatchObject({ level: 'info', event: 'job.error', job: 7, kind: 'auth', note: 'Bearer [redacted]' });
    expect(rec).not.toHaveProperty('key');
    expect(rec).not.toHaveProperty('text');
  });

  it('rotates by size and keeps a bounded number of files', () => {
    const log = new FileLogger(dir.path, 2_000, 3);
    for (let i = 0; i < 200; i++) log.log('info', 'tick', { i, pad: 'x'.repeat(50) });
    const files = readdirSync(dir.path).sort();
    expect(files).toEqual(['batchdesk.log', 'batchdesk.log.1', 'batchdesk.log.2', 'batchdesk.log.3']);
    expect(existsSync(join(dir.path, 'batchdesk.log.4'))).toBe(false);
    for (const f of files) expect(readFileSync(join(dir.path, f)).length).toBeLessThanOrEqual(2_000);
  });

  it('writes debug lines at the end of the turn, in order with the lines around them, and on close', async () => {
    const log = new FileLogger(dir.path);
    const lines = (): string[] =>
      (existsSync(join(dir.path, 'batchdesk.log')) ? readFileSync(join(dir.path, 'batchdesk.log'), 'utf8').trim().split('\n') : []).map(
        (l) => (JSON.parse(l) as { event: string }).event,
      );
    log.log('debug', 'a');
    log.log('debug', 'b');
    expect(lines()).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(lines()).toEqual(['a', 'b']);
    log.log('debug', 'c');
    log.log('warn', 'd');
    expect(lines()).toEqual(['a', 'b', 'c', 'd']);
    log.log('debug', 'e');
    log.close();
    expect(lines()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
