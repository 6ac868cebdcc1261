// The desktop app's "Save results to folder...": batches.saveFiles asks the shell for a folder
// (here a stand-in for Electron's dialog) and writes the batch's item files into it; a cancelled
// dialog writes nothing; a batch with nothing done yet or without files is refused before asking.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppService } from '../../src/main/service/app-service';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';

describe('batches.saveFiles (desktop)', () => {
  const dir = tempDir('batchdesk-save-files-');
  let service: AppService | null = null;
  afterEach(async () => {
    await service?.close();
    dir.cleanup();
  });

  it('asks for a folder, then writes each item as its own file; a cancelled dialog writes nothing', async () => {
    let answer: string | null = join(dir.path, 'chosen');
    const asked: string[] = [];
    service = new AppService({
      dataDir: join(dir.path, 'data'),
      secrets: emptyKeychain,
      transport: 'electron',
      apiUrl: null,
      env: {},
      chooseFolder: async (title) => {
        asked.push(title);
        return answer;
      },
    });
    const engine = service.engine;
    const txt = join(dir.path, 'tickets.txt');
    writeFileSync(txt, 'My refund has not arrived.\nWhere is my parcel?\n');
    const id = (await engine.createBatch({ capability: 'text', paths: [txt], name: 'Tickets', task: 'summary' })).batch?.id ?? '';

    const early = await service.call('batches.saveFiles', { id });
    expect(early).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringContaining('has succeeded yet') } });
    expect(asked).toHaveLength(0);

    engine.db
      .prepare(
        `UPDATE jobs SET state = 'succeeded', finished_at = 0, result_json = json_object('text', 'summary ' || seq, 'task', 'summary', 'label', NULL) WHERE batch_id = ? AND seq = (SELECT MIN(seq) FROM jobs WHERE batch_id = ?)`,
      )
      .run(id, id);
    const saved = await service.call('batches.saveFiles', { id });
    expect(saved).toMatchObject({ ok: true, result: { dir: join(dir.path, 'chosen'), written: 1, noFile: 1, problemCount: 0 } });
    expect(asked).toEqual(['Save the results of "Tickets" to a folder']);
    expect(readdirSync(join(dir.path, 'chosen'))).toEqual(['line-1.txt']);
    expect(readFileSync(join(dir.path, 'chosen', 'line-1.txt'), 'utf8')).toMatch(/^summary \d+$/);

    answer = null;
    const cancelled = await service.call('batches.saveFiles', { id });
    expect(cancelled).toMatchObject({ ok: true, result: { dir: null, written: 0 } });
    expect(readdirSync(join(dir.path, 'chosen'))).toEqual(['line-1.txt']);

    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460001,Hello\n');
    const channel = (await engine.createBatch({ capability: 'channel', paths: [csv] })).batch?.id ?? '';
    const refused = await service.call('batches.saveFiles', { id: channel });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_argument', message: expect.stringContaining('--format csv') } });
    expect(asked).toHaveLength(2);
  });
});
