// #/search/<words>: every finished item of every batch whose file name, input, result or error has
// the words, best first, grouped by batch; a hit opens its job beside its batch.
import { useEffect, useMemo, useState } from 'react';
import type { SearchHitView } from '../../../shared/contract';
import { describe } from '../../../shared/capabilities/catalog';
import { client, errorMessage } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { displaySource } from '../format/source';
import { STATE_LABEL } from '../format/labels';
import { formatCount } from '../format/time';
import { hrefFor } from '../routing/route';
import './SearchScreen.css';

/** The passage with its matches as <mark>: the engine marks them with \u0002 ... \u0003. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(\u0002[^\u0003]*\u0003)/);
  return (
    <p className="search-hit__snippet">{parts.map((p, i) => (p.startsWith('\u0002') ? <mark key={i}>{p.slice(1, -1)}</mark> : <span key={i}>{p}</span>))}</p>
  );
}

export function SearchScreen({ query, semantic }: { query: string; semantic: boolean }) {
  const [hits, setHits] = useState<SearchHitView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (query.trim() === '') return;
    let live = true;
    client()
      .call('search.query', { query, limit: semantic ? 50 : 200, semantic })
      .then((r) => live && setHits(r.hits))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [query, semantic]);
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
        <h1>{query ? `Search: “${query}”` : 'Search'}</h1>
      </div>
      {query !== '' ? (
        <div className="search-screen__mode" role="group" aria-label="Search by">
          <a href={hrefFor({ name: 'search', query, semantic: false })} aria-current={!semantic ? 'page' : undefined}>
            Words
          </a>
          <a href={hrefFor({ name: 'search', query, semantic: true })} aria-current={semantic ? 'page' : undefined}>
            Meaning
          </a>
          <span className="muted">
            {semantic
              ? 'Nearest embedded results (Follow-up batch… → Embed for search embeds a batch); the query is embedded through the API.'
              : 'Every word, in any order; "quoted words" as a phrase.'}
          </span>
        </div>
      ) : null}
      {query === '' ? (
        <p className="muted">
          Type words in the search box above: transcripts, invoice text, message text, recipients, file names and errors of every batch are searched.
        </p>
      ) : null}
      <ErrorAlert message={error ? `Search failed: ${error}` : null} />
      {query !== '' && hits === null && !error ? (
        <p role="status" className="muted">
          Searching…
        </p>
      ) : null}
      {hits !== null ? (
        <p role="status">
          {hits.length === 0
            ? semantic
              ? 'Nothing embedded matches. Embed a batch first: on its page, Follow-up batch… then Embed for search.'
              : 'Nothing found. Items are searchable once they finished (succeeded or failed); every word must appear (in any order; "quoted words" as a phrase).'
            : `${formatCount(hits.length)} item${hits.length === 1 ? '' : 's'} in ${formatCount(groups.length)} batch${groups.length === 1 ? '' : 'es'}${semantic ? ', nearest first' : hits.length >= 200 ? ' (the best 200)' : ''}`}
        </p>
      ) : null}
      {groups.map((g) => (
        <section key={g.batch} className="card stack search-group" aria-label={`Results in ${g.name}`}>
          <h2>
            <a href={hrefFor({ name: 'batch', id: g.batch, jobId: null })}>{g.name}</a>{' '}
            <span className="muted search-group__meta">
              {describe(g.capability).short} · {formatCount(g.hits.length)} hit{g.hits.length === 1 ? '' : 's'}
            </span>
          </h2>
          <ol className="search-hits">
            {g.hits.map((h) => (
              <li key={h.job} className="search-hit">
                <a href={hrefFor({ name: 'batch', id: h.batch, jobId: h.job })} className="search-hit__source mono">
                  {displaySource(h.source)}
                </a>
                {h.state === 'failed' ? <span className="status-pill status-pill--done_with_failures">{STATE_LABEL.failed}</span> : null}
                {semantic ? <span className="muted"> · similarity {h.score.toFixed(2)}</span> : null}
                <Snippet text={h.snippet} />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
