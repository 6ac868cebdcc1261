// A typed step that is not one says why as a code beside its English, so the window can word it
// without the command line's command.
import { describe, expect, it } from 'vitest';
import { parseStep } from '../../../src/shared/capabilities/steps';

describe('a typed step that is not one', () => {
  it('gives its code with the figures the window needs', () => {
    expect(parseStep('nonsense')).toMatchObject({ ok: false, problem: { code: 'not_capability', takers: expect.arrayContaining(['text']) } });
    expect(parseStep('embeddings:x')).toMatchObject({ ok: false, problem: { code: 'no_option', capability: 'embeddings' } });
    const classify = parseStep('text:classify');
    expect(classify).toMatchObject({ ok: false, problem: { code: 'classify_labels' } });
    // The command line's English still names its command; the code carries none.
    expect(!classify.ok && classify.message).toMatch(/batchdesk batch create text/);
    expect(parseStep('text:poem')).toMatchObject({
      ok: false,
      problem: { code: 'not_a_choice', capability: 'text', choices: expect.arrayContaining(['summary']) },
    });
  });
});
