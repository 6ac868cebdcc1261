// SQLite's I/O errors on a full disk: growing the shared memory file or writing pages fails as
// SQLITE_IOERR_SHMSIZE / SHMMAP / WRITE / FSYNC, not SQLITE_FULL. With no free space on the data
// folder's filesystem they are the full disk; with space left, a failing disk.
import { describe, expect, it } from 'vitest';
import { STOPPED_RUN, freeBytesOf, storageFailure } from '../../../src/main/engine/queue/storage-failure';

const sqliteError = (code: string): Error & { code: string } => Object.assign(new Error(`disk I/O error (${code})`), { code });

describe('storage failures', () => {
  it.each(['SQLITE_IOERR_SHMSIZE', 'SQLITE_IOERR_SHMMAP', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC'])(
    '%s with no free space on the data folder is the full disk, naming the folder',
    (code) => {
      const asked: string[] = [];
      const f = storageFailure(sqliteError(code), '/data/bd', 'creating the batch', STOPPED_RUN, (dir) => {
        asked.push(dir);
        return 0;
      });
      expect(asked).toEqual(['/data/bd']);
      expect(f?.code).toBe(code);
      expect(f?.message).toMatch(/^The disk holding \/data\/bd is full: Batchdesk stopped creating the batch\..*Free some space on that disk/);
      expect(f?.message).not.toContain('connected and healthy');
    },
  );

  it('the same errors with space left (or the space unknown) are a failing disk', () => {
    for (const free of [4096, null]) {
      const f = storageFailure(sqliteError('SQLITE_IOERR_SHMSIZE'), '/data/bd', 'running the batch', STOPPED_RUN, () => free);
      expect(f?.message).toMatch(/could not write to \/data\/bd \(SQLITE_IOERR_SHMSIZE\).*Check that the disk is connected and healthy/);
    }
  });

  it('other I/O errors are a failing disk whatever the free space', () => {
    const f = storageFailure(sqliteError('SQLITE_IOERR_READ'), '/data/bd', 'running the batch', STOPPED_RUN, () => 0);
    expect(f?.message).toContain('Check that the disk is connected and healthy');
  });

  it('reads the free space of a real folder, and null for one that is not there', () => {
    expect(freeBytesOf(process.cwd())).toBeGreaterThanOrEqual(0);
    expect(freeBytesOf('/no/such/folder/at/all')).toBeNull();
  });
});
