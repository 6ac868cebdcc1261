// A batch card once said "Done, 4 of 4" under a pipeline row whose bar stood at 22 %: the count
// and the bar came from different batches (the first step, the steps summed). Both are now one
// figure, and the card that opens in a pipeline's row is the step still at work.
import { beforeAll, describe, expect, it } from 'vitest';
import { pipelineRows, progressOf } from '../../../src/renderer/src/batches/batch-table-model';
import { figureOf, openedStep, progressFigure } from '../../../src/renderer/src/batches/progress-figure';
import { emptyCounts, type BatchSummary } from '../../../src/shared/domain';
import { batchSummary } from '../../helpers/batch-summary';
import type { ProgressFigure } from '../../../src/renderer/src/batches/progress-figure';

// The bar and React are loaded at run time: the Node-side type check has no JSX (icons.test.ts).
const BAR_MODULE = '../../../src/renderer/src/components/ProgressBar';
const REACT = 'react';
const REACT_SERVER = 'react-dom/server';
let renderBar: (figure: ProgressFigure) => string;
beforeAll(async () => {
  const bar = (await import(BAR_MODULE)) as { ProgressBar: unknown };
  const react = (await import(REACT)) as { createElement: (type: unknown, props: object) => unknown };
  const server = (await import(REACT_SERVER)) as { renderToStaticMarkup: (el: unknown) => string };
  renderBar = (figure) => server.renderToStaticMarkup(react.createElement(bar.ProgressBar, { figure, label: 'Progress' }));
});

const step = (n: number, over: Partial<BatchSummary>): BatchSummary =>
  batchSummary({
    id: `s${n}`,
    name: n === 1 ? 'Calls 26 Nov' : `step ${n}`,
    capability: n === 1 ? 'transcribe' : 'text',
    pipeline: { id: 's1', step: n, parent: n === 1 ? null : `s${n - 1}`, next: n === 3 ? [] : [`s${n + 1}`], awaiting: 0 },
    ...over,
  });

describe('one figure for the count and the bar', () => {
  // Step 1 done (4 of 4); step 2 at work on its 4; step 3 waits for them (4 on their way).
  const steps = [
    step(1, { status: 'done', total: 4, counts: { ...emptyCounts(), succeeded: 4, needs_review: 0 } }),
    step(2, { status: 'running', total: 4, counts: { ...emptyCounts(), queued: 3, running: 1, needs_review: 0 } }),
    step(3, { status: 'running', total: 4, counts: { ...emptyCounts(), needs_review: 0 } }),
  ];

  it("a pipeline's row: its items (the first step's), through when the last step has them; bar and count one figure", () => {
    const [group] = pipelineRows(steps);
    if (!group) throw new Error('no row');
    expect(group.kind).toBe('pipeline');
    expect(group.row.status).toBe('running');
    // Step 1 has all 4, but none is through step 3 yet: 0 of 4, not "4 of 12" (the steps' items summed).
    expect(progressFigure(group.row)).toEqual({ done: 0, failed: 0, total: 4, pct: 0 });
    const later = pipelineRows([
      steps[0] as BatchSummary,
      step(2, { status: 'done', total: 4, counts: { ...emptyCounts(), succeeded: 3, failed: 1, needs_review: 0 } }),
      step(3, { status: 'running', total: 3, counts: { ...emptyCounts(), succeeded: 2, queued: 1, needs_review: 0 } }),
    ])[0];
    if (!later) throw new Error('no row');
    // 2 through step 3 and 1 failed at step 2 (it goes no further): 3 of the pipeline's 4.
    const f = progressFigure(later.row);
    expect(f).toEqual({ done: 3, failed: 1, total: 4, pct: 75 });
    expect(progressOf(later.row)).toBeCloseTo(3 / 4);
    const bar = renderBar(f);
    expect(bar).toContain('aria-valuenow="75"');
    expect(bar).toContain('75% (3 of 4)');
  });

  it('opens the step still at work in the row, not the finished first one', () => {
    expect(openedStep(steps)?.id).toBe('s2');
    // One waiting for the user comes first; all finished: the last.
    expect(openedStep([steps[0], { ...steps[1], status: 'paused' }, steps[2]] as BatchSummary[])?.id).toBe('s2');
    expect(openedStep(steps.map((s) => ({ ...s, status: 'done' as const })))?.id).toBe('s3');
  });

  it("a step's own figure: failed items count as finished, drawn apart", () => {
    expect(progressFigure(steps[0] as BatchSummary)).toEqual({ done: 4, failed: 0, total: 4, pct: 100 });
    expect(figureOf(3, 1, 4)).toEqual({ done: 3, failed: 1, total: 4, pct: 75 });
    expect(figureOf(0, 0, 0).pct).toBe(0);
  });
});
