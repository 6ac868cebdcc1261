// `npm run demo` says where its data goes before it writes anything, and again at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk demo', () => {
  const dir = tempDir('batchdesk-demo-');
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('names the data folder and how to choose another before creating anything', async () => {
    const data = join(dir.path, 'data');
    const r = await runCli(['demo', '--data-dir', data]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const first = lines.findIndex((l) => l.includes(data));
    const created = lines.findIndex((l) => l.startsWith('Created'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(created);
    expect(lines.slice(0, created).join('\n')).toContain('--data-dir');
    expect(lines.slice(created).join('\n')).toContain(data);
  });
});
