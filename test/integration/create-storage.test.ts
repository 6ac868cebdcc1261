// `batch create` on a data folder that cannot take the batch: a full disk or a folder that cannot
// be written is said with the folder and what to do (exit 4 on the command line), not as SQLite's
// bare "database or disk is full", and the batch is not created.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Engine } from '../../src/main/engine/engine';
import { StorageFailure } from '../../src/main/engine/queue/storage-failure';
import { classifyFailure, exitCodeFor } from '../../src/main/engine/failures';
import { noKeychain, writeMessagesCsv } from './harness';
import { tempDir } from '../helpers/temp-dir';

const open: Engine[] = [];
const dirs: (() => void)[] = [];
afterEach(() => {
  for (const e of open.splice(0)) e.close();
  for (const c of dirs.splice(0)) c();
});

async function folder(): Promise<{ engine: Engine; dir: string; csv: string }> {
  const t = tempDir('batchdesk-create-');
  dirs.push(t.cleanup);
  const engine = Engine.open({ dataDir: join(t.path, 'data'), secrets: noKeychain, env: {} });
  open.push(engine);
  const csv = await writeMessagesCsv(t.path, 300);
  return { engine, dir: join(t.path, 'data'), csv: csv.path };
}

async function createFailure(engine: Engine, csv: string): Promise<StorageFailure> {
  const e = await engine.createBatch({ capability: 'channel', paths: [csv] }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StorageFailure);
  expect(exitCodeFor(classifyFailure(e).kind)).toBe(4);
  expect(await engine.control.summaries()).toEqual([]);
  return e as StorageFailure;
}

describe('batch create on a data folder that cannot take it', () => {
  it('a full disk names the folder and says what to do', async () => {
    const { engine, dir, csv } = await folder();
    // SQLite answers SQLITE_FULL once the file would outgrow max_page_count, as on a full disk.
    engine.db.pragma(`max_page_count = ${Number(engine.db.pragma('page_count', { simple: true })) + 2}`);
    const e = await createFailure(engine, csv);
    expect(e.message).toBe(
      `The disk holding ${dir} is full: Batchdesk stopped creating the batch. The batch was not created. Free some space on that disk, then create it again.`,
    );
  });

  it('a folder that cannot be written names the folder and says what to do', async () => {
    const { engine, dir, csv } = await folder();
    // SQLite's answer for a read-only file (SQLITE_READONLY), as on a read-only disk or folder.
    engine.db.pragma('query_only = 1');
    const e = await createFailure(engine, csv);
    expect(e.message).toBe(
      `${dir} cannot be written (SQLITE_READONLY): Batchdesk stopped creating the batch. The batch was not created. Make the folder writable (or choose another --data-dir), then create it again.`,
    );
  });
});
