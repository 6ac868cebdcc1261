// The problems of an import grouped by kind (a count and one example each, every line of the kind
// on demand), and "Download rejected rows": exactly the refused rows of each CSV with a `problem`
// column, to fix and drop again.
import { useMemo, useState } from 'react';
import type { Problem } from '../../../shared/contract';
import { problemLine } from '../../../shared/problem-line';
import { client } from '../client';
import { downloadText } from '../costs/download-text';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { baseName } from '../format/labels';
import { displaySource, displayText } from '../format/source';
import { formatCount } from '../format/time';
import { useAction } from '../hooks/use-action';
import { groupProblems, rejectedRowsBySource, type ProblemGroup } from './problem-groups';
import { VirtualList } from './VirtualList';
import './ProblemsPanel.css';

const lineOf = (p: Problem): string => displayText(problemLine(displaySource(p.source), p));

function groupTitle(n: number): string {
  return n === 1 ? 'One item has this problem.' : `${formatCount(n)} items have this problem.`;
}

function Group({ group }: { group: ProblemGroup }) {
  const [open, setOpen] = useState(false);
  const first = group.problems[0];
  if (first === undefined) return null;
  const n = group.problems.length;
  return (
    <li className="problems__group">
      <p className="problems__count">{groupTitle(n)}</p>
      <p className="problems__example">{lineOf(first)}</p>
      {n > 1 ? (
        <>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide the other items with this problem' : `Show all ${formatCount(n)} items with this problem`}
          </button>
          {open ? <VirtualList lines={group.problems.map(lineOf)} label={`Every item with this problem (${formatCount(n)})`} /> : null}
        </>
      ) : null}
    </li>
  );
}

/** "messages-rejected.csv" from "messages.csv". */
function rejectedName(source: string): string {
  const name = baseName(displaySource(source));
  return `${name.replace(/\.csv$/i, '')}-rejected.csv`;
}

function DownloadRejected({ problems }: { problems: readonly Problem[] }) {
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const sources = useMemo(() => rejectedRowsBySource(problems), [problems]);
  if (sources.length === 0) return null;
  const download = (s: (typeof sources)[number]) =>
    action.run(async () => {
      setNote(null);
      // The row is the old file's; in the new file it moves, so the cell keeps only the cause.
      const list = s.problems.map((p) => ({ row: p.row, message: p.message.replace(/^(?:Row|Line) \d+:\s*/, '') }));
      const r = await client().call('batches.rejectedRows', { source: s.source, problems: list });
      const name = rejectedName(s.source);
      downloadText(name, r.csv);
      setNote(
        r.missing > 0
          ? `Saved ${formatCount(r.rows)} refused rows as ${name}; ${formatCount(r.missing)} rows were no longer in the file, so drop it again to see its problems as they are now.`
          : `Saved ${formatCount(r.rows)} refused rows as ${name}. Fix them there and drop that file here again.`,
      );
    });
  return (
    <div className="problems__download">
      {sources.map((s) => (
        <button key={s.source} type="button" onClick={() => void download(s)} disabled={action.busy}>
          {sources.length === 1 ? 'Download rejected rows' : `Download rejected rows of ${baseName(displaySource(s.source))}`}
        </button>
      ))}
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
    </div>
  );
}

export function ProblemsPanel({ problems }: { problems: readonly Problem[] }) {
  const groups = useMemo(() => groupProblems(problems), [problems]);
  if (problems.length === 0) return null;
  const n = problems.length;
  const heading = n === 1 ? 'One problem: this item is skipped.' : `${formatCount(n)} problems: these items are skipped.`;
  return (
    <section aria-labelledby="preview-problems">
      <details className="problems" open>
        <summary>
          <h3 id="preview-problems">{heading}</h3>
        </summary>
        <div className="problems__body stack">
          <p className="field-hint">
            {groups.length === 1 ? 'They have one cause.' : `They have ${formatCount(groups.length)} different causes, largest first.`}
          </p>
          <ul className="problems__groups">
            {groups.map((g) => (
              <Group key={g.kind} group={g} />
            ))}
          </ul>
          <DownloadRejected problems={problems} />
        </div>
      </details>
    </section>
  );
}
