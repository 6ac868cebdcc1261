// The problems of an import grouped by kind (a count and one example each, every line of the kind
// on demand), and "Download rejected rows": exactly the refused rows of each CSV with a `problem`
// column, to fix and drop again.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n, t } from '../i18n';
import { useDraftStore } from './draft-store';
import { spreadsheetLocale } from '../format/spreadsheet-locale';
import type { Problem } from '../../../shared/contract';
import { client } from '../client';
import { downloadText } from '../costs/download-text';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { baseName } from '../format/labels';
import { displaySource } from '../format/source';
import { formatCount } from '../format/time';
import { useAction } from '../hooks/use-action';
import { groupProblems, rejectedRowsBySource, type ProblemGroup } from './problem-groups';
import { problemWords, rejectedRowCause } from './problem-words';
import { VirtualList } from './VirtualList';
import './ProblemsPanel.css';

const lineOf = (p: Problem): string => problemWords(p);

function groupTitle(n: number): string {
  return t('newBatch:problems.groupCount', { count: n, n: formatCount(n) });
}

/**
 * National numbers refused ("0151 2345 0013") where the phone country is known: one control names
 * that country for the batch (its "Numbers without a country code" field), never chosen for the user.
 */
function ReadNational({ group, country }: { group: ProblemGroup; country: string | null }) {
  const settings = useDraftStore((s) => s.settings);
  const national = group.problems.some((p) => p.code.code === 'phone_not_international' && p.code.plus === null);
  if (!national || country === null || (settings.nationalNumbers ?? '') !== '') return null;
  let name = country;
  try {
    name = new Intl.DisplayNames([i18n.language], { type: 'region' }).of(country) ?? country;
  } catch {
    // An engine without region names: the code alone.
  }
  return (
    <div className="problems__fix">
      <button type="button" onClick={() => useDraftStore.getState().set({ settings: { ...settings, nationalNumbers: country } })}>
        {t('newBatch:problems.readNational', { country: name, code: country })}
      </button>
      <p className="field-hint">{t('newBatch:problems.readNationalHint', { country: name })}</p>
    </div>
  );
}

function Group({ group, country }: { group: ProblemGroup; country: string | null }) {
  const [open, setOpen] = useState(false);
  const first = group.problems[0];
  if (first === undefined) return null;
  const n = group.problems.length;
  return (
    <li className="problems__group">
      <p className="problems__count">{groupTitle(n)}</p>
      <p className="problems__example">{lineOf(first)}</p>
      <ReadNational group={group} country={country} />
      {n > 1 ? (
        <>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? t('newBatch:problems.hideOthers') : t('newBatch:problems.showAll', { n: formatCount(n) })}
          </button>
          {open ? <VirtualList lines={group.problems.map(lineOf)} label={t('newBatch:problems.every', { n: formatCount(n) })} /> : null}
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
      // The row is the old file's; in the new file it moves, so the cell keeps only the cause (in the window's language).
      const list = s.problems.map((p) => ({ row: p.row, message: rejectedRowCause(p) }));
      // For the spreadsheet of the OS locale, as the export menu's "for a spreadsheet": ';' where it has a decimal comma.
      const csvLocale = spreadsheetLocale(i18n.language).tag;
      const r = await client().call('batches.rejectedRows', { source: s.source, problems: list, csvLocale });
      const name = rejectedName(s.source);
      downloadText(name, r.csv);
      setNote(
        r.missing > 0
          ? t('newBatch:problems.savedMissing', { count: r.rows, n: formatCount(r.rows), name, missing: formatCount(r.missing) })
          : t('newBatch:problems.saved', { count: r.rows, n: formatCount(r.rows), name }),
      );
    });
  return (
    <div className="problems__download">
      {sources.map((s) => (
        <button key={s.source} type="button" onClick={() => void download(s)} disabled={action.busy}>
          {sources.length === 1 ? t('newBatch:problems.download') : t('newBatch:problems.downloadOf', { name: baseName(displaySource(s.source)) })}
        </button>
      ))}
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
    </div>
  );
}

/** `phoneCountry`: the country of national numbers as the settings resolve it (null: none known). */
export function ProblemsPanel({ problems, phoneCountry = null }: { problems: readonly Problem[]; phoneCountry?: string | null }) {
  const groups = useMemo(() => groupProblems(problems), [problems]);
  const { t } = useTranslation('newBatch');
  if (problems.length === 0) return null;
  const n = problems.length;
  const heading = t('problems.heading', { count: n, n: formatCount(n) });
  return (
    <section aria-labelledby="preview-problems">
      <details className="problems" open>
        <summary>
          <h3 id="preview-problems">{heading}</h3>
        </summary>
        <div className="problems__body stack">
          <p className="field-hint">{t('problems.causes', { count: groups.length, n: formatCount(groups.length) })}</p>
          <ul className="problems__groups">
            {groups.map((g) => (
              <Group key={g.kind} group={g} country={phoneCountry} />
            ))}
          </ul>
          <DownloadRejected problems={problems} />
        </div>
      </details>
    </section>
  );
}
