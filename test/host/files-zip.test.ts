// The browser host's "Download results (.zip)": GET /files/<batch id>.zip streams every succeeded
// item's own file as one zip (read back here with yauzl), behind the same token, Host and Origin
// guards as every route; batches without files, unknown ones and ones with nothing done yet are
// answered with a message before any byte of a zip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readZip as unzip } from '../helpers/zip';
import { startHostFixture, type HostFixture } from './host-fixture';

function getBytes(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('browser host: result files as a zip', () => {
  let f: HostFixture;
  let ttsId = '';

  beforeAll(async () => {
    f = await startHostFixture();
    const session = 'a1b2c3d4-0000-4000-8000-0000000000f1';
    const csv = 'text,name\nYour parcel has arrived.,greeting\nThank you for calling.,\nGoodbye!,greeting\n';
    const put = await new Promise<{ top: string }>((resolve, reject) => {
      const r = http.request(`${f.host.url}/upload?session=${session}&path=lines.csv`, { method: 'PUT', headers: f.auth }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve(JSON.parse(body) as { top: string }));
      });
      r.on('error', reject);
      r.end(csv);
    });
    const created = await f.rpc('batches.create', { capability: 'tts', paths: [put.top] });
    expect(created.status).toBe(200);
    ttsId = (created.json as { batch: { id: string } }).batch.id;
    for (let i = 0; i < 400; i++) {
      const b = (await f.rpc('batches.get', { id: ttsId })).json as { status: string };
      if (b.status === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    await f.close();
  });

  it('streams the same files under the same names as the folder export, bytes as saved', async () => {
    const r = await getBytes(`${f.host.url}/files/${ttsId}.zip`, f.auth);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/zip');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+-files\.zip"$/);
    expect(r.headers['content-length']).toBeUndefined(); // streamed, not built first
    const entries = await unzip(r.body);
    expect([...entries.keys()]).toEqual(['greeting.wav', 'row-3.wav', 'greeting (2).wav']);
    const saved = f.service.engine.outputsDir(ttsId);
    for (const [name, bytes] of entries) expect(bytes.equals(readFileSync(join(saved, name))), name).toBe(true);
    // The folder export names them the same.
    const dir = join(f.dataDir, 'check');
    await f.service.engine.exportFiles(ttsId, dir);
    expect(readdirSync(dir).sort()).toEqual([...entries.keys()].sort());
  });

  it('is guarded like every route: token, Host and Origin', async () => {
    const url = `${f.host.url}/files/${ttsId}.zip`;
    expect((await getBytes(url, {})).status).toBe(401);
    expect((await getBytes(url, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await getBytes(url, { ...f.auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await getBytes(url, { ...f.auth, host: `rebind.example:${f.host.port}` })).status).toBe(403);
    const post = await new Promise<number>((resolve) => {
      const r = http.request(url, { method: 'POST', headers: f.auth }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      r.end();
    });
    expect(post).toBe(404);
  });

  it('answers with a message, not a zip, when there is nothing to zip', async () => {
    const unknown = await f.get('/files/bnotabatch.zip');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('No batch');

    const messages = join(f.dataDir, 'm.csv');
    writeFileSync(messages, 'to,text\n+442079460001,Hello\n');
    const channel = await f.service.engine.createBatch({ capability: 'channel', paths: [messages] });
    const refused = await f.get(`/files/${channel.batch?.id ?? ''}.zip`);
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toContain('application/json');
    expect(refused.body).toContain('no file per item');
    expect(refused.body).toContain('--format csv');

    const lines = join(f.dataDir, 'later.txt');
    writeFileSync(lines, 'Not sent yet.\n');
    const pending = await f.service.engine.createBatch({ capability: 'tts', paths: [lines] });
    const none = await f.get(`/files/${pending.batch?.id ?? ''}.zip`);
    expect(none.status).toBe(400);
    expect(none.body).toContain('has succeeded yet');
  });

  it('survives a browser that goes away half way through a large zip', async () => {
    const lines = join(f.dataDir, 'many.txt');
    writeFileSync(lines, `${Array.from({ length: 3000 }, (_, i) => `note ${i}`).join('\n')}\n`);
    const id = (await f.service.engine.createBatch({ capability: 'text', paths: [lines], task: 'summary' })).batch?.id ?? '';
    f.service.engine.db
      .prepare(
        `UPDATE jobs SET state = 'succeeded', finished_at = 0, result_json = json_object('text', printf('%.2000c', 'x'), 'task', 'summary', 'label', NULL) WHERE batch_id = ?`,
      )
      .run(id);
    const got = await new Promise<number>((resolve, reject) => {
      const req = http.get(`${f.host.url}/files/${id}.zip`, { headers: f.auth }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
          if (n > 1000) {
            req.destroy();
            resolve(n);
          }
        });
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    });
    expect(got).toBeGreaterThan(1000);
    // The zip being written stops (and says so in the log) instead of waiting for a reader forever.
    const log = join(f.dataDir, 'logs', 'batchdesk.log');
    await expect.poll(() => readFileSync(log, 'utf8'), { timeout: 5000 }).toContain('"event":"host.files_zip_failed"');
    // The host carries on: the next download is complete.
    const again = await getBytes(`${f.host.url}/files/${id}.zip`, f.auth);
    expect(again.status).toBe(200);
    expect((await unzip(again.body)).size).toBe(3000);
  });

  it('refuses batches.saveFiles in the browser, pointing at the zip', async () => {
    const r = await f.rpc('batches.saveFiles', { id: ttsId });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain('Download results (.zip)');
  });
});
