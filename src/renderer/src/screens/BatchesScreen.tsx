// #/batches: every batch in a sortable, filterable table (newest first), kept live by batches.snapshot.
import { useMemo } from 'react';
import { BatchTable } from '../batches/BatchTable';
import { ErrorAlert } from '../components/ErrorAlert';
import { sortBatches, useBatchesStore } from '../store/batches-store';
import './BatchesScreen.css';

export function BatchesScreen() {
  const byId = useBatchesStore((s) => s.byId);
  const loaded = useBatchesStore((s) => s.loaded);
  const error = useBatchesStore((s) => s.error);
  const batches = useMemo(() => sortBatches(byId), [byId]);
  return (
    <div className="screen">
      <div className="screen__head">
        <h1>Batches</h1>
        <div className="screen__head-actions">
          <a className="button-link" href="#/new">
            New batch
          </a>
        </div>
      </div>
      <ErrorAlert message={error ? `Could not load the batches: ${error}` : null} />
      {!loaded ? <p className="muted">Loading batches…</p> : null}
      {loaded && batches.length === 0 && !error ? (
        <div className="empty card">
          <p>No batches yet.</p>
          <p>
            <a href="#/new">Create a batch</a>: drop recordings, invoices or a message CSV, see the estimate, then start.
          </p>
        </div>
      ) : null}
      {batches.length > 0 ? <BatchTable batches={batches} /> : null}
    </div>
  );
}
