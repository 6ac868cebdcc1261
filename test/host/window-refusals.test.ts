// The window words every refusal it can meet from its code (shared/refusals.ts): the engine's
// English names commands to type and is English. Two halves: every refusal written in the code the
// window's calls run through (the service, the desk, the batch verbs, comparisons) carries a code,
// read from the source so a new one without a code fails here; and the window's refused inputs,
// called for real, come back with their code.
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { AppService } from '../../src/main/service/app-service';
import { emptyKeychain } from '../helpers/empty-keychain';
import { tempDir } from '../helpers/temp-dir';
import { RECORDINGS } from '../integration/harness';

const ROOT = join(import.meta.dirname, '..', '..');

/** The folders (and files) whose refusals reach the window: its handlers, both desks, the batch verbs, comparisons, hot folders. */
const WINDOW_PATHS = [
  'src/main/service',
  'src/main/desk',
  'src/main/engine/control',
  'src/main/engine/compare',
  'src/main/engine/watch/hot-folders.ts',
  'src/main/engine/secrets',
  // Saving result files into a folder; export-batch's other refusal (an --out file already there) is the command line's only.
  'src/main/engine/exporters/export-files.ts',
  // The search screen's refusals: the query's check, a search by meaning and its query's embedding.
  'src/main/engine/search',
];
const REFUSING = new Set(['UserError', 'NotFoundError', 'InvalidArgumentError']);

function sourceFiles(dir: string): string[] {
  if (dir.endsWith('.ts')) return [dir];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each `new UserError(...)` (or its kinds) given no refusal code, as file:line. */
function uncodedRefusals(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && REFUSING.has(n.expression.text) && (n.arguments?.length ?? 0) < 2) {
      found.push(`${relative(ROOT, join(ROOT, file))}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

describe('refusals the window meets', () => {
  it('are all written with a code in the code its calls run through', () => {
    const files = WINDOW_PATHS.flatMap(sourceFiles);
    // The scan sees the refusals it should: a path renamed away would make this pass on nothing.
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.endsWith('handlers.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('search-by-meaning.ts'))).toBe(true);
    expect(files.flatMap(uncodedRefusals)).toEqual([]);
  });

  it('notices a refusal written without a code', () => {
    const dir = tempDir('batchdesk-refusal-scan-');
    try {
      const file = join(dir.path, 'sample.ts');
      writeFileSync(file, "throw new UserError('No.');\nthrow new NotFoundError('No.', { code: 'no_job', job: 1 });\n");
      expect(uncodedRefusals(relative(ROOT, file))).toEqual([`${relative(ROOT, file)}:1`]);
    } finally {
      dir.cleanup();
    }
  });

  const dir = tempDir('batchdesk-window-refusals-');
  const services: AppService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
  });

  it("come back from the window's calls with their code", async () => {
    const service = new AppService({ dataDir: join(dir.path, 'data'), secrets: emptyKeychain, transport: 'browser', apiUrl: null, env: {} });
    services.push(service);
    const wav = join(RECORDINGS, 'call-001-double-charge.wav');
    const batch = (await service.engine.createBatch({ capability: 'transcribe', paths: [wav] })).batch;
    const id = batch?.id ?? '';
    const txt = join(dir.path, 'lines.txt');
    writeFileSync(txt, 'hello\n');
    const rows = (await service.engine.createBatch({ capability: 'tts', paths: [txt] })).batch;
    const rowJob = service.engine.jobPage({ batchId: rows?.id ?? '', limit: 1, offset: 0 }).rows[0]?.id ?? 0;
    const refusal = async (method: string, arg: unknown): Promise<unknown> => {
      const r = await service.call(method, arg);
      return r.ok ? null : (r.error.refusal ?? { none: r.error.message });
    };

    // The window offers Compare tiers only where comparisons are made: this computer's data folder.
    expect(await service.call('app.info', {})).toMatchObject({ ok: true, result: { store: 'local' } });
    expect(await refusal('batches.get', { id: 'b-none' })).toEqual({ code: 'no_batch', batch: 'b-none' });
    expect(await refusal('jobs.get', { id: 999_999 })).toEqual({ code: 'no_job', job: 999_999 });
    expect(await refusal('compare.get', { group: 'c-none' })).toEqual({ code: 'no_comparison', group: 'c-none' });
    expect(await refusal('keys.remove', { id: 'k-none' })).toEqual({ code: 'no_key', key: 'k-none' });
    expect(await refusal('batches.export', { id, format: 'invoices' })).toEqual({ code: 'export_format', format: 'invoices', capability: 'transcribe' });
    expect(await refusal('batches.saveFiles', { id })).toEqual({ code: 'save_needs_desktop' });
    expect(await refusal('jobs.showSource', { id: rowJob })).toEqual({ code: 'show_needs_desktop' });
    const csv = join(dir.path, 'm.csv');
    writeFileSync(csv, 'to,text\n+442079460051,Hi\n');
    const messages = (await service.engine.createBatch({ capability: 'channel', paths: [csv] })).batch?.id ?? '';
    expect(await refusal('compare.create', { batchId: messages, tiers: ['basic', 'standard'], sample: 1 })).toEqual({
      code: 'compare_side_effect',
      capability: 'channel',
      tiers: 2,
    });
    const gone = join(dir.path, 'gone.pdf');
    expect(await refusal('watch.resend', { path: gone })).toEqual({ code: 'resend_gone', path: gone });
    expect(await refusal('watch.remove', { id: 'w-none' })).toEqual({ code: 'no_watch', watch: 'w-none' });
    expect(await refusal('watch.add', { dir: join(dir.path, 'missing'), capability: 'ocr', tier: 'standard' })).toEqual({
      code: 'watch_folder',
      dir: join(dir.path, 'missing'),
      why: 'missing',
    });
    expect(await refusal('optouts.add', { recipient: 'abc' })).toEqual({ code: 'recipient_unreadable', value: 'abc', kind: 'phone' });
    expect(await refusal('keys.add', { kind: 'api', label: 'acme', secret: 'abcd efgh ijkl', client: null, baseUrl: null })).toEqual({
      code: 'key_refused',
      why: 'whitespace',
    });
    expect(await refusal('privacy.forget', { value: '1234567', dryRun: true })).toEqual({ code: 'forget_unreadable', value: '1234567' });
    expect(await refusal('rates.set', { item: 'fax', tier: 'basic', rate: 1 })).toMatchObject({ code: 'unknown_rate_item', item: 'fax' });
    expect(await refusal('batches.preview', { capability: 'transcribe', paths: ['/etc/hosts'] })).toEqual({ code: 'path_not_uploaded', path: '/etc/hosts' });

    // The search screen: no words, too many, and a search by meaning before anything is embedded.
    expect(await refusal('search.query', { query: '   ' })).toEqual({ code: 'search_empty' });
    expect(await refusal('search.query', { query: 'x'.repeat(501) })).toEqual({ code: 'search_too_long', length: 501, limit: 500 });
    expect(await refusal('search.query', { query: 'billed twice', semantic: true })).toEqual({ code: 'meaning_nothing_embedded' });
    expect(await refusal('search.query', { query: 'billed twice', batchId: 'b-none' })).toEqual({ code: 'no_batch', batch: 'b-none' });
    expect(await service.call('search.query', { query: 'x'.repeat(500) })).toMatchObject({ ok: true, result: { hits: [] } });

    // Nothing succeeded yet: no result files to download (the browser's zip).
    await expect(service.filesZip(id)).rejects.toMatchObject({ refusal: { code: 'nothing_succeeded', name: batch?.name } });

    // Cancelled: cancelling again says nothing was left; retry and schedule are refused.
    expect(await service.call('batches.cancel', { id })).toMatchObject({ ok: true });
    expect(await refusal('batches.cancel', { id })).toEqual({ code: 'nothing_to_cancel', batch: id, status: 'cancelled' });
    expect(await refusal('batches.retry', { id })).toEqual({ code: 'batch_cancelled', batch: id, action: 'retry' });
    expect(await refusal('batches.schedule', { id, at: Date.now() + 3_600_000 })).toEqual({ code: 'batch_cancelled', batch: id, action: 'schedule' });
  });
});
