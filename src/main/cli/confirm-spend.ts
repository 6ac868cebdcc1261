// Before a command spends as soon as it is typed (index, compare): the estimate, then a question.
// `batch create` shows its estimate and sends nothing until `run`; these commands create and send
// in one go, so they ask in between. --yes answers yes; where no one can answer (standard input
// is not a terminal) and --yes is missing, nothing is sent and the refusal names the flag.
import { createInterface } from 'node:readline';
import { UsageError } from './exit-codes';
import type { Io } from './io';
import { formatEur } from '../../shared/money';
import type { BatchSummary } from '../../shared/domain';
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

/** A batch made already, about to be sent: what is left of its estimate. */
export function batchLeftLines(b: BatchSummary): string[] {
  const left = Math.max(0, b.cost.estimated - b.cost.spent);
  return [
    `Batch ${b.id} "${b.name}": ${b.total} item(s), ${b.counts.succeeded} done; estimated ${formatEur(left, 4)} still to spend (${formatEur(b.cost.spent, 4)} spent so far).`,
  ];
}
