// Pipelines end to end on the real engine and sandbox, on this data folder's SQLite file: the
// pipeline cases (test/conformance/pipeline-cases.ts, run on PostgreSQL too in pipelines-pg.test.ts)
// and what only a local create has: a pipeline create killed half way is cleaned up.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { pipelineCases } from '../conformance/pipeline-cases';
import { startHarness } from './harness';
import { openLocalRig } from './store-rigs';

pipelineCases('local runner, SQLite', openLocalRig);

describe('pipelines on one computer', () => {
  it('a pipeline create killed half way is removed by the next create, later steps first', async () => {
    const h = await startHarness();
    const dead = `${hostname()} 2147483646`; // no such process
    h.engine.batches.insert({ id: 'broot', name: '', capability: 'text', tier: 'standard', channel: null, options: {}, budget: null, creator: dead });
    h.engine.batches.insert({
      id: 'bstep',
      name: '',
      capability: 'crm',
      tier: 'standard',
      channel: null,
      options: {},
      budget: null,
      creator: dead,
      follows: { parentId: 'broot', pipelineId: 'broot', step: 2 },
    });
    const txt = join(h.dir, 'notes.txt');
    await writeFile(txt, 'hello there\n');
    const created = await h.engine.createBatch({ capability: 'text', paths: [txt] });
    expect(created.batch).not.toBeNull();
    expect(h.engine.db.prepare(`SELECT COUNT(*) AS n FROM batches WHERE id IN ('broot','bstep')`).get()).toEqual({ n: 0 });
  });
});
