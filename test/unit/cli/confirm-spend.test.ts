// The question before a command spends (index, compare): the estimate, then yes or no at a
// terminal; --yes answers it; with no one to answer, a refusal that names --yes.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmSpend, type SpendQuestion } from '../../../src/main/cli/confirm-spend';
import { UsageError } from '../../../src/main/cli/exit-codes';
import type { Io } from '../../../src/main/cli/io';
import type { TextOut } from '../../../src/main/cli/terminal-out';

function fakeIo(typed: string | null): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const text = (into: string[]): TextOut => ({ write: (t) => into.push(t) > 0, isTTY: typed !== null, columns: 80, redrawLine: () => undefined });
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  Object.defineProperty(stdin, 'isTTY', { value: typed !== null });
  if (typed !== null) (stdin as unknown as PassThrough).end(typed);
  return { io: { stdout: text(out), stderr: text(err), stdin, env: {}, carry: (t) => t }, out, err };
}

const q: SpendQuestion = {
  lines: ['Embedding the results of b1: up to 3 item(s), ~2,100 characters, tier standard, €0.0021 (estimate).'],
  question: 'Send it?',
  command: 'batchdesk index b1',
  declined: 'Nothing was sent; no batch was made.',
  yes: false,
};

describe('confirmSpend', () => {
  it('shows the estimate and sends on "y" typed at a terminal', async () => {
    const { io, out, err } = fakeIo('y\n');
    expect(await confirmSpend(io, q)).toBe(true);
    expect(out.join('')).toContain('€0.0021');
    expect(err.join('')).toBe('Send it? [y/N] ');
  });
  it('sends nothing on anything else, and says so', async () => {
    for (const typed of ['\n', 'n\n', 'nope\n', '']) {
      const { io, out } = fakeIo(typed);
      expect(await confirmSpend(io, q), JSON.stringify(typed)).toBe(false);
      expect(out.join('')).toContain('Nothing was sent; no batch was made.');
    }
  });
  it('--yes sends without asking, even where no one could answer', async () => {
    const { io, out, err } = fakeIo(null);
    expect(await confirmSpend(io, { ...q, yes: true })).toBe(true);
    expect(out.join('')).toContain('€0.0021');
    expect(err).toEqual([]);
  });
  it('refuses where no one can answer, naming --yes; the estimate goes to stderr beside --json', async () => {
    const { io, out, err } = fakeIo(null);
    const r = confirmSpend(io, { ...q, toStderr: true });
    await expect(r).rejects.toThrow(UsageError);
    await expect(r).rejects.toThrow('Add --yes to send it: `batchdesk index b1 --yes`.');
    expect(out).toEqual([]);
    expect(err.join('')).toContain('€0.0021');
  });
});
