// optout add | remove | import | list: the suppression list in the data folder, or with --store
// the team's list in the shared store (every worker checks it, besides its own, before each message).
import { resolve } from 'node:path';
import { parse } from '../parse';
import { optoutSpec } from '../specs/optout';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { optOutKey } from '../../engine/messaging/opt-out-list';
import { importOptOutFile } from '../../desk/opt-out-import';
import { openCliDesk } from '../desk';

export async function cmdOptout(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, optoutSpec.options);
  if (sub !== 'add' && sub !== 'remove' && sub !== 'import' && sub !== 'list') {
    throw new UsageError('optout takes add <recipient>..., remove <recipient>..., import FILE or list.');
  }
  if ((sub === 'add' || sub === 'remove') && positionals.length === 0)
    throw new UsageError(`optout ${sub} needs at least one phone number (+<country code><number>) or e-mail address.`);
  if (sub === 'import' && positionals.length !== 1) throw new UsageError('optout import takes one file (CSV or one recipient per line).');
  const desk = await openCliDesk(values, io, { read: sub === 'list' });
  const book = desk.optOuts;
  try {
    if (sub === 'list') {
      const all = await book.list();
      if (values.json) {
        io.stdout.write(
          `${JSON.stringify({ opt_outs: all.map((o) => ({ recipient: o.recipient, added_at: new Date(o.addedAt).toISOString(), source: o.source })) }, null, 2)}\n`,
        );
      } else if (all.length === 0) io.stdout.write(`${capitalised(book.name)} is empty.\n`);
      else for (const o of all) io.stdout.write(`${o.recipient.padEnd(32)} ${new Date(o.addedAt).toISOString().slice(0, 10)}  ${o.source}\n`);
      return EXIT.ok;
    }
    if (sub === 'import') {
      const file = resolve(positionals[0] ?? '');
      const r = await importOptOutFile(book, file);
      if (!r.ok) {
        if (r.why === 'unreadable') throw new UsageError(r.message);
        io.stderr.write(`! ${r.message}\n`);
        return EXIT.someFailed;
      }
      io.stdout.write(`Added ${r.added} recipient(s) from ${file} to ${book.name} (${r.already} already on it; ${r.total} in all).\n`);
      for (const p of r.refused.slice(0, 50)) io.stderr.write(`! ${p.message} Not added.\n`);
      if (r.refused.length > 50) io.stderr.write(`! and ${r.refused.length - 50} more like these\n`);
      return r.refused.length > 0 ? EXIT.someFailed : EXIT.ok;
    }
    let bad = 0;
    for (const raw of positionals) {
      const key = optOutKey(raw);
      if (!key.ok) {
        io.stderr.write(io.carry(`! ${key.reason}\n`));
        bad++;
        continue;
      }
      if (sub === 'add') {
        const added = (await book.add([{ recipient: key.value, source: 'batchdesk optout add' }])) === 1;
        io.stdout.write(`${added ? book.told.added(key.value) : book.told.already(key.value)}\n`);
      } else {
        io.stdout.write(`${(await book.remove(key.value)) ? book.told.removed(key.value) : book.told.notOn(key.value)}\n`);
      }
    }
    return bad > 0 ? EXIT.usage : EXIT.ok;
  } finally {
    await desk.close();
  }
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
