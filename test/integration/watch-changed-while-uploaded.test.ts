// A file a watched folder took that changes while it is being uploaded fails with the advice that
// fits its origin: `watch resend` (the window's Send this version too), not "create a new batch".
// The API here reads the upload's first bytes, then the test rewrites the end of the file, then
// the API reads the rest: what was uploaded is not what was checked before sending. The file is
// far larger than the sockets' buffers, so the end is read only after it was rewritten.
import { describe, expect, it } from 'vitest';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startHarness, jobsOf } from './harness';
import { connect } from '../../src/main/compose/connect';
import { tempDir } from '../helpers/temp-dir';

/** 8 kHz 16-bit mono PCM WAV of `dataBytes` samples' bytes. */
function wav(dataBytes: number): Buffer {
  const b = Buffer.alloc(44 + dataBytes, 7);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(b.length - 8, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

const SIZE = 32 * 1024 * 1024;
const TAIL = 1024 * 1024;

describe('a file that changed while it was being uploaded', () => {
  it("says `watch resend` for a watched folder's item", async () => {
    const h = await startHarness();
    const dir = tempDir('batchdesk-watch-uploading-');
    let rewritten = false;
    const uploads: string[] = [];
    // Rewrites the file's end once the upload has begun, then reads the rest.
    const rewriteTail = (path: string): void => {
      const fd = openSync(path, 'r+');
      try {
        writeSync(fd, Buffer.alloc(TAIL, 0x55), 0, TAIL, SIZE + 44 - TAIL);
      } finally {
        closeSync(fd);
      }
      rewritten = true;
    };
    let file = '';
    const api = createServer((req: IncomingMessage, res: ServerResponse) => {
      uploads.push(req.url ?? '');
      req.once('data', () => {
        req.pause();
        if (!rewritten && file !== '') rewriteTail(file);
        req.resume();
      });
      req.on('data', () => undefined);
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'hello', duration_seconds: 1 }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    try {
      const folder = join(dir.path, 'calls');
      mkdirSync(folder);
      h.engine.hotFolders.add({ dir: folder, capability: 'transcribe', budgetPerDay: 100_000_000 });
      file = join(folder, 'call.wav');
      writeFileSync(file, wav(SIZE));
      const taken = await h.engine.hotFolders.resend(file);
      if (taken.kind !== 'taken') throw new Error(`not taken: ${taken.kind}`);
      const conn = await connect({ apiUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, env: h.env, keys: h.engine.keys, dataDir: h.dir });
      await h.engine.run(conn.target, { batchIds: [taken.batchId], start: [taken.batchId] });
      expect(rewritten).toBe(true);
      const [job] = jobsOf(h.engine, taken.batchId);
      expect(job?.state).toBe('failed');
      expect(job?.error_message).toMatch(
        /call\.wav: the file changed while it was being uploaded; the API's answer is kept but may not match the file\. It came from a watched folder: to send the new version, `batchdesk watch resend \S+call\.wav` \(in the window: Watch folders, Send this version too\)\./,
      );
      expect(job?.error_message).not.toMatch(/Create a new batch/);
    } finally {
      await new Promise<void>((r) => api.close(() => r()));
      dir.cleanup();
    }
  }, 120_000);
});
