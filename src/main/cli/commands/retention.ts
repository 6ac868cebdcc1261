// retention run [--dry-run] | log: the retention rules applied now (or shown), and the log of every
// deletion they made (engine/retention), in the data folder or, with --store, a team's store (and
// this computer's own files of the team's batches).
import { parse } from '../parse';
import { retentionSpec } from '../specs/retention';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { openCliDesk } from '../desk';
import type { Deletion } from '../../engine/retention/retention-plan';
import type { Desk } from '../../desk/desk';
import { retentionWords } from '../../../shared/retention-rules';

const KIND_WORDS: Record<Deletion['kind'], string> = {
  output: 'output',
  upload: 'uploaded copy',
  original: 'original (watched folder)',
  export: 'export',
  result: 'result text',
};

/** The rule a batch without its own gets (the data folder's default, or the team's), and how to change it. */
async function defaultLine(desk: Desk): Promise<string> {
  const d = await desk.retention.defaults();
  const words = retentionWords(d);
  const owner = desk.storeFlag === '' ? 'The default' : `The team's default (in ${desk.description}, for every worker and desk)`;
  const change = `\`batchdesk config set keep_files_days N${desk.storeFlag}\``;
  if (words === null)
    return desk.storeFlag === ''
      ? `There is no default rule: a batch without its own deletes nothing (${change} sets one).\n`
      : `The team has no default rule: a team's batch without its own keeps what it was made with (${change} sets one).\n`;
  return `${owner}, for batches without a rule of their own: ${words} (${d.from}; ${change} changes it).\n`;
}

export async function cmdRetention(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values } = parse(rest, retentionSpec.options);
  if (sub !== 'run' && sub !== 'log') throw new UsageError('retention takes run [--dry-run] or log.');
  if (sub === 'log') {
    const limit = values.limit === undefined ? 200 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit takes a whole number of entries, 1 or more (got "${values.limit}").`);
    const desk = await openCliDesk(values, io, { read: true });
    try {
      const log = await desk.retention.log(limit);
      if (values.json) {
        const rows = log.map((e) => ({
          at: new Date(e.at).toISOString(),
          kind: e.kind,
          what: e.what,
          rule: e.rule,
          batch: e.batchId,
          job: e.jobId,
          ...(e.worker !== undefined ? { worker: e.worker } : {}),
        }));
        io.stdout.write(`${JSON.stringify({ log: rows }, null, 2)}\n`);
      } else {
        if (log.length === 0) io.stdout.write(`Retention has deleted nothing in ${desk.description} yet.\n`);
        for (const e of log)
          io.stdout.write(
            `${new Date(e.at).toISOString().slice(0, 19)}Z  ${KIND_WORDS[e.kind].padEnd(26)} ${e.what}\n    by ${e.rule}${e.worker !== undefined ? `, deleted by worker ${e.worker}` : ''}\n`,
          );
        io.stdout.write(io.carry(await defaultLine(desk)));
      }
      return EXIT.ok;
    } finally {
      await desk.close();
    }
  }
  const dryRun = values['dry-run'] === true;
  const desk = await openCliDesk(values, io, { read: dryRun });
  try {
    const r = await desk.retention.run({ dryRun });
    if (values.json) {
      const rows = r.done.map((d) => ({ kind: d.kind, what: d.what, rule: d.rule, batch: d.batchId, job: d.jobId }));
      io.stdout.write(`${JSON.stringify({ [dryRun ? 'would_delete' : 'deleted']: rows, problems: r.problems }, null, 2)}\n`);
    } else {
      // A rule may hold and name nothing yet: its period counts from when each item finished.
      if (r.done.length === 0)
        io.stdout.write(
          io.carry(
            `Nothing is due for deletion${dryRun ? '' : ' now'} in ${desk.description}: no rule's period has passed for anything (\`batchdesk status ID${desk.storeFlag}\` shows a batch's rule, \`batchdesk config list${desk.storeFlag}\` the default).\n`,
          ),
        );
      for (const d of r.done) io.stdout.write(`${dryRun ? 'would delete' : 'deleted'} ${KIND_WORDS[d.kind]}: ${d.what}\n    by ${d.rule}\n`);
      if (r.done.length > 0)
        io.stdout.write(
          io.carry(
            dryRun
              ? `${r.done.length} deletion(s) due; nothing was deleted (without --dry-run they go, each logged).\n`
              : `${r.done.length} deletion(s), each in \`batchdesk retention log${desk.storeFlag}\`.\n`,
          ),
        );
      io.stdout.write(io.carry(await defaultLine(desk)));
      for (const p of r.problems) io.stderr.write(`! ${p.what} could not be deleted (${p.reason}); check its permissions. It is tried again next time.\n`);
    }
    return r.problems.length > 0 ? EXIT.someFailed : EXIT.ok;
  } finally {
    await desk.close();
  }
}
