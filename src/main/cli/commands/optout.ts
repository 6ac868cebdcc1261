// optout add | remove | import | list: the suppression list in the data folder.
import { resolve } from 'node:path';
import { parse } from '../parse';
import { optoutSpec } from '../specs/optout';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import type { Io } from '../io';
import { globalOptions, openEngine } from '../context';
import { optOutKey } from '../../engine/messaging/opt-out-list';
import { readOptOutFile } from '../../engine/messaging/read-opt-out-file';

export async function cmdOptout(args: string[], io: Io): Promise<ExitCode> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, optoutSpec.options);
  if (sub !== 'add' && sub !== 'remove' && sub !== 'import' && sub !== 'list') {
    throw new UsageError('optout takes add <recipient>..., remove <recipient>..., import FILE or list.');
  }
  if ((sub === 'add' || sub === 'remove') && positionals.length === 0) throw new UsageError(`optout ${sub} needs at least one phone number (+<country code><number>) or e-mail address.`);
  if (sub === 'import' && positionals.length !== 1) throw new UsageError('optout import takes one file (CSV or one recipient per line).');
  const engine = openEngine(globalOptions(values, io.env), io.env);
  try {
    const list = engine.optOuts;
    if (sub === 'list') {
      const all = list.list();
      if (values.json) {
        io.stdout.write(`${JSON.stringify({ opt_outs: all.map((o) => ({ recipient: o.recipient, added_at: new Date(o.addedAt).toISOString(), source: o.source })) }, null, 2)}\n`);
      } else if (all.length === 0) io.stdout.write('The opt-out list is empty.\n');
      else for (const o of all) io.stdout.write(`${o.recipient.padEnd(32)} ${new Date(o.addedAt).toISOString().slice(0, 10)}  ${o.source}\n`);
      return EXIT.ok;
    }
    if (sub === 'import') {
      const file = resolve(positionals[0] ?? '');
      let read;
      try {
        read = await readOptOutFile(file);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new UsageError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : e instanceof Error ? e.message : String(e)}. Give a CSV with a column to, phone or email, or a text file with one recipient per line.`);
      }
      if (read.lines === 0) {
        io.stderr.write(`! ${file} holds no recipients (it is empty, or has only a header). Nothing was added.\n`);
        return EXIT.someFailed;
      }
      const added = engine.db.transaction(() => read.recipients.filter((r) => list.add(r.recipient, `import ${r.source}`)).length)();
      io.stdout.write(`Added ${added} recipient(s) from ${file} to the opt-out list (${read.recipients.length - added} already on it; ${list.count()} in all).\n`);
      for (const p of read.problems.slice(0, 50)) io.stderr.write(`! ${p} Not added.\n`);
      if (read.problems.length > 50) io.stderr.write(`! and ${read.problems.length - 50} more like these\n`);
      return read.problems.length > 0 ? EXIT.someFailed : EXIT.ok;
    }
    let bad = 0;
    for (const raw of positionals) {
      const key = optOutKey(raw);
      if (!key.ok) {
        io.stderr.write(`! ${key.reason}\n`);
        bad++;
        continue;
      }
      if (sub === 'add') io.stdout.write(list.add(key.value, 'batchdesk optout add') ? `Added ${key.value}: no message will be sent to it.\n` : `${key.value} is on the list already.\n`);
      else io.stdout.write(list.remove(key.value) ? `Removed ${key.value}: it can be sent to again.\n` : `${key.value} was not on the list.\n`);
    }
    return bad > 0 ? EXIT.usage : EXIT.ok;
  } finally {
    engine.close();
  }
}
