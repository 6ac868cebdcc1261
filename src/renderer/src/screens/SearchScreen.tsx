// #/search/<words>: every finished item of every batch whose file name, input, result or error has
// the words, best first, grouped by batch; a hit opens its job beside its batch.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchHitView } from '../../../shared/contract';
import { capabilityWords } from '../format/option-words';
import { client, errorMessage } from '../client';
import { RpcFailure } from '../transport';
import { ErrorAlert } from '../components/ErrorAlert';
import { sourceWords } from '../format/source';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import { formatLocale } from '../i18n';
import { hrefFor } from '../routing/route';
import './SearchScreen.css';

/** The passage with its matches as <mark>: the engine marks them with \u0002 ... \u0003. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(\u0002[^\u0003]*\u0003)/);
  return (
    <p className="search-hit__snippet">{parts.map((p, i) => (p.startsWith('\u0002') ? <mark key={i}>{p.slice(1, -1)}</mark> : <span key={i}>{p}</span>))}</p>
  );
}

/** A similarity score (0 to 1) with two decimals, in the OS's locale. */
function scoreWords(score: number): string {
  return score.toLocaleString(formatLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function SearchScreen({ query, semantic }: { query: string; semantic: boolean }) {
  const { t } = useTranslation('search');
  const [hits, setHits] = useState<SearchHitView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (query.trim() === '') return;
    let live = true;
    client()
      .call('search.query', { query, limit: semantic ? 50 : 200, semantic })
      .then((r) => live && setHits(r.hits))
      // A refusal (no words, too long, nothing embedded...) is said in its own words; anything else failed.
      .catch((e: unknown) => live && setError(e instanceof RpcFailure && e.refusal !== null ? e.message : t('failed', { error: errorMessage(e) })));
    return () => {
      live = false;
    };
  }, [query, semantic, t]);
  const groups = useMemo(() => {
    const out: { batch: string; name: string; capability: SearchHitView['capability']; hits: SearchHitView[] }[] = [];
    for (const h of hits ?? []) {
      const g = out.find((x) => x.batch === h.batch);
      if (g) g.hits.push(h);
      else out.push({ batch: h.batch, name: h.batchName, capability: h.capability, hits: [h] });
    }
    return out;
  }, [hits]);

  return (
    <div className="screen search-screen">
      <div className="screen__head">
        <h1>{query ? t('titleFor', { query }) : t('title')}</h1>
      </div>
      {query !== '' ? (
        <div className="search-screen__mode" role="group" aria-label={t('modeAria')}>
          <a href={hrefFor({ name: 'search', query, semantic: false })} aria-current={!semantic ? 'page' : undefined}>
            {t('words')}
          </a>
          <a href={hrefFor({ name: 'search', query, semantic: true })} aria-current={semantic ? 'page' : undefined}>
            {t('meaning')}
          </a>
          <span className="muted">{semantic ? t('meaningHint') : t('wordsHint')}</span>
        </div>
      ) : null}
      {query === '' ? <p className="muted">{t('empty')}</p> : null}
      <ErrorAlert message={error} />
      {query !== '' && hits === null && !error ? (
        <p role="status" className="muted">
          {t('searching')}
        </p>
      ) : null}
      {hits !== null ? (
        <p role="status">
          {hits.length === 0
            ? semantic
              ? t('noneMeaning')
              : t('noneWords')
            : t(semantic ? 'countNearest' : hits.length >= 200 ? 'countBest' : 'count', {
                items: t('items', { count: hits.length, n: formatCount(hits.length) }),
                batches: t('batches', { count: groups.length, n: formatCount(groups.length) }),
                best: formatCount(200),
              })}
        </p>
      ) : null}
      {groups.map((g) => (
        <section key={g.batch} className="card stack search-group" aria-label={t('groupAria', { name: g.name })}>
          <h2>
            <a href={hrefFor({ name: 'batch', id: g.batch, jobId: null })}>{g.name}</a>{' '}
            <span className="muted search-group__meta">
              {capabilityWords(g.capability).short} · {t('hits', { count: g.hits.length, n: formatCount(g.hits.length) })}
            </span>
          </h2>
          <ol className="search-hits">
            {g.hits.map((h) => (
              <li key={h.job} className="search-hit">
                <a href={hrefFor({ name: 'batch', id: h.batch, jobId: h.job })} className="search-hit__source mono">
                  {sourceWords(h.source)}
                </a>
                {h.state === 'failed' ? <span className="status-pill status-pill--done_with_failures">{STATE_LABEL.failed}</span> : null}
                {semantic ? <span className="muted"> · {t('similarity', { score: scoreWords(h.score) })}</span> : null}
                <Snippet text={h.snippet} />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
