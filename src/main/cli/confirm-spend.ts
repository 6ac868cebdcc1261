// Before a command commits to spending: the estimate of what it would send, then a question.
// index and compare create and send in one go; resume, retry, schedule and `batch create --at`
// let a running Batchdesk send what is left with no one asked again. `batch create` alone shows
// its estimate and sends nothing until `run`, which is the answer to it (run says what it is
// about to send, without asking). --yes answers yes; where no one can answer (standard input is
// not a terminal) and --yes is missing, nothing is sent and the refusal names the flag.
import { UsageError } from './exit-codes';
import type { Io } from './io';
import { formatEur } from '../../shared/money';
import { countOf } from './format';
import type { LeftToSend, StepLeft } from '../engine/control/left-to-send';
import type { StepEstimate } from '../engine/pipeline/projection';

export interface SpendQuestion {
  /** The estimate, a line each ("Embedding 3 item(s): ~2,100 characters, €0.0021 (estimate)"). */
  lines: string[];
  /** "Send it?" */
  question: string;
  /** The command as typed, to repeat with --yes ("batchdesk index b1a2b3"). */
  command: string;
  /** What stays as it was when the answer is no ("Nothing was sent."). */
  declined: string;
  /** --yes given. */
  yes: boolean;
  /** Print the estimate on stderr (stdout holds --json). */
  toStderr?: boolean;
}

/** One line typed at the terminal ('' at its end). */
async function readLine(stdin: NodeJS.ReadStream): Promise<string> {
  // Loaded here, not at start-up: only a question at a terminal reads a line.
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: stdin, terminal: false });
  try {
    return await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
  } finally {
    rl.close();
    stdin.pause();
  }
}

/** True when the user agreed (or gave --yes); false when they said no (`declined` is printed). */
export async function confirmSpend(io: Io, q: SpendQuestion): Promise<boolean> {
  const out = q.toStderr ? io.stderr : io.stdout;
  for (const line of q.lines) out.write(io.carry(`${line}\n`));
  if (q.yes) return true;
  if (!io.stdin.isTTY) {
    throw new UsageError(
      io.carry(
        `Nothing was sent: this needs a yes to the estimate above, and no one can answer here (standard input is not a terminal). Add --yes to send it: \`${q.command} --yes\`.`,
      ),
    );
  }
  io.stderr.write(`${q.question} [y/N] `);
  const answer = (await readLine(io.stdin)).trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return true;
  io.stdout.write(io.carry(`${q.declined}\n`));
  return false;
}

/** A step about to be made and sent, as its estimate reads ("up to 3 item(s), ~2,100 characters, €0.0021 (basis)"). */
export function stepEstimateLines(what: string, e: StepEstimate): string[] {
  return [
    `${what}: up to ${e.items} item(s), ~${Math.round(e.units).toLocaleString('en')} ${e.unitName}, tier ${e.tier}, ${formatEur(e.cost, 4)} (${e.basis}).`,
  ];
}

export interface LeftOptions {
  /** retry: this batch's failed items are queued again, so they count as left to send. */
  again?: string;
  /** resume --budget: the budget it will have (null: none). */
  budget?: number | null;
}

/** Money, units and items a step has left (its failed ones too when they are sent again). */
function stepFigures(s: StepLeft, again: boolean): { items: number; units: number; cost: number; text: string } {
  const failed = again ? s.failed : { items: 0, units: 0, cost: 0 };
  const items = s.open.items + failed.items;
  const units = Math.round(s.open.units + failed.units);
  const cost = s.expected + failed.cost;
  const parts = [`${items} of ${s.total} item(s)${failed.items > 0 ? ` (${failed.items} failed, sent again)` : ''}`];
  if (s.coming > 0) parts.push(`up to ${s.coming} more as the step before it succeeds`);
  parts.push(`~${countOf(units, s.unitName)}`, `estimated ${formatEur(cost, 4)}`);
  return { items: items + s.coming, units, cost, text: parts.join(', ') };
}

/**
 * What is left to send of a batch (and every step of its pipeline), with what it is estimated to
 * cost from here, what was spent and the budget: shown before a command commits to sending it.
 * `items`: how many are left (0: nothing to ask about).
 */
export function leftLines(left: LeftToSend, opts: LeftOptions = {}): { lines: string[]; items: number } {
  const [first] = left.steps;
  if (!first) return { lines: [], items: 0 };
  const figures = left.steps.map((s) => ({ s, f: stepFigures(s, s.id === opts.again) }));
  const cost = figures.reduce((n, x) => n + x.f.cost, 0);
  const spent = left.steps.reduce((n, s) => n + s.spent, 0);
  const items = figures.reduce((n, x) => n + x.f.items, 0);
  const amount = opts.budget !== undefined ? opts.budget : (left.budget?.amount ?? null);
  const covered = left.budget?.spent ?? spent;
  const budget =
    amount === null
      ? 'no budget'
      : `budget ${formatEur(amount, 4)}${covered !== spent ? ` (${formatEur(covered, 4)} of it spent)` : ''}${opts.budget !== undefined ? ' once resumed' : ''}`;
  const money = `(${formatEur(spent, 4)} spent so far); ${budget}.`;
  if (figures.length === 1) return { lines: [`Left to send of batch ${first.id} "${first.name}": ${figures[0]?.f.text ?? ''} ${money}`], items };
  return {
    lines: [
      `Left to send of batch ${first.id} "${first.name}" and the steps of its pipeline:`,
      ...figures.map(({ s, f }) => `  step ${s.step} ${s.id}: ${f.text}`),
      `Estimated still to spend: ${formatEur(cost, 4)} ${money}`,
    ],
    items,
  };
}
