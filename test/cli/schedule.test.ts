// batch create --at / --quiet-hours / --recipient-gap and batchdesk schedule, from the command line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp-dir';

describe('batchdesk schedule', () => {
  const dir = tempDir('batchdesk-cli-schedule-');
  const args = ['--data-dir', join(dir.path, 'data')];
  beforeAll(() => assertBuilt());
  afterAll(() => dir.cleanup());

  it('creates a scheduled message batch with quiet hours and a gap; changes, removes and refuses times', async () => {
    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460001,Hi\n');
    const past = await runCli(['batch', 'create', 'channel', csv, '--at', '2020-01-01 09:00 Europe/Berlin', ...args]);
    expect(past.code).not.toBe(0);
    expect(past.stderr).toMatch(/The start time 2020-01-01 \d\d:\d\d \(.+\) is in the past \(it is now /);
    const bad = await runCli(['batch', 'create', 'channel', csv, '--quiet-hours', '9pm-8am', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('write them like 21:00-08:00');
    expect((await runCli(['batch', 'create', 'ocr', csv, '--recipient-gap', '10m', ...args])).stderr).toContain(
      '--recipient-gap: a recipient gap is for message batches (channel), not ocr.',
    );

    const created = await runCli([
      'batch',
      'create',
      'channel',
      csv,
      '--yes',
      '--at',
      '2030-01-01 09:00 Europe/Berlin',
      '--quiet-hours',
      '21:00-08:00',
      '--recipient-gap',
      '10m',
      '--json',
      ...args,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const batch = (JSON.parse(created.stdout) as { batch: { id: string; scheduled_for: string; messaging: unknown } }).batch;
    expect(batch.scheduled_for).toBe('2030-01-01T08:00:00.000Z');
    expect(batch.messaging).toEqual({ quiet_hours: '21:00-08:00', zone: expect.any(String), recipient_gap_ms: 600_000 });

    const changed = await runCli(['schedule', batch.id, '--at', '2031-02-02T10:00Z', '--yes', ...args]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout).toContain('(2031-02-02T10:00:00.000Z): nothing is sent before');
    const status = await runCli(['status', batch.id, ...args]);
    expect(status.stdout).toContain('scheduled for');
    expect(status.stdout).toContain("quiet hours 21:00-08:00 recipient's local time; at least 10m between messages to one recipient");
    expect((await runCli(['schedule', batch.id, '--at', 'next tuesday', ...args])).stderr).toContain('is not a date and time');
    const cleared = await runCli(['schedule', batch.id, '--clear', ...args]);
    expect(cleared.stdout).toContain('No start time any more');
    expect(cleared.stdout).not.toContain('scheduled for');
  });
});
