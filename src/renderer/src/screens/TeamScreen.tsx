// #/team: every batch of the team's shared store (host started with `--store URL`), read again
// every second: status, progress, spend, and which worker ("host pid") holds how many of its items
// now. Start, pause, resume and cancel act for every worker at once.
import { useEffect, useState } from 'react';
import type { TeamView } from '../../../shared/contract';
import { isEnded } from '../../../shared/domain';
import { workerState } from '../../../shared/team-batch';
import { client } from '../client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorAlert } from '../components/ErrorAlert';
import { ProgressBar } from '../components/ProgressBar';
import { useAction } from '../hooks/use-action';
import { STATUS_LABEL } from '../format/labels';
import { formatMoney } from '../format/money';
import { formatCount } from '../format/time';
import { useTeamStore } from '../store/team-store';
import '../team/team.css';

const REFRESH_MS = 1_000;

type Row = TeamView['batches'][number];

function Controls({ row }: { row: Row }) {
  const action = useAction();
  const { batch } = row;
  // Cancelling cannot be undone, for the whole team: asked first, as on one computer (BatchControls).
  const [confirmCancel, setConfirmCancel] = useState(false);
  const act = (verb: 'start' | 'pause' | 'resume' | 'cancel') =>
    action.run(async () => {
      await client().call('team.control', { id: batch.id, verb });
      await useTeamStore.getState().load();
    });
  if (isEnded(batch.status)) return null;
  return (
    <div className="row">
      {batch.status === 'pending' ? (
        // Not started (made with `batch create --store`, or scheduled): started here for every worker.
        <button type="button" onClick={() => void act('start')} disabled={action.busy}>
          {batch.scheduled_for === null ? 'Start' : 'Start now'}
        </button>
      ) : batch.status === 'paused' ? (
        <button type="button" onClick={() => void act('resume')} disabled={action.busy}>
          Resume
        </button>
      ) : (
        <button type="button" onClick={() => void act('pause')} disabled={action.busy}>
          Pause
        </button>
      )}
      <button type="button" onClick={() => setConfirmCancel(true)} disabled={action.busy}>
        Cancel
      </button>
      <ErrorAlert message={action.error} />
      <ConfirmDialog
        open={confirmCancel}
        title={`Cancel "${batch.name}" for the team?`}
        confirmLabel="Yes, cancel batch"
        dismissLabel="Keep batch"
        onConfirm={() => {
          setConfirmCancel(false);
          void act('cancel');
        }}
        onDismiss={() => setConfirmCancel(false)}
      >
        <p>
          No worker sends its items not yet sent; the ones in flight now finish. Items already done stay done and keep their cost. This cannot be undone; to run
          the rest later, create a new batch.
        </p>
        {batch.pipeline ? (
          <p>This batch is step {batch.pipeline.step} of a pipeline: its steps with work left are cancelled, and finished ones stay as they are.</p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

function TeamRow({ row }: { row: Row }) {
  const { batch, inFlight, notSent } = row;
  const done = batch.counts.succeeded;
  const failed = batch.counts.failed + batch.counts.cancelled;
  return (
    <tr data-testid={`team-batch-${batch.id}`}>
      <th scope="row">
        {batch.name}
        <div className="muted mono">{batch.id}</div>
      </th>
      <td className="team__nowrap" data-testid="team-status">
        {STATUS_LABEL[batch.status]}
        {batch.pause ? <div className="muted">{batch.pause.reason}</div> : null}
      </td>
      <td className="team__progress">
        <ProgressBar done={done} failed={failed} total={batch.total} label={`Progress of ${batch.name}`} />
        <div className="muted tabular" data-testid="team-counts">
          {formatCount(done)} of {formatCount(batch.total)} done
          {batch.counts.failed > 0 ? `, ${formatCount(batch.counts.failed)} failed` : ''}
          {batch.counts.running > 0 ? `, ${formatCount(batch.counts.running)} in flight` : ''}
        </div>
      </td>
      <td className="tabular team__nowrap">
        {formatMoney(batch.cost.spent)}
        <div className="muted">of {formatMoney(batch.cost.estimated)} est.</div>
      </td>
      <td data-testid="team-in-flight">
        {inFlight.length === 0 ? <span className="muted">—</span> : `in flight on: ${inFlight.map((w) => `${w.worker} (${w.running})`).join(', ')}`}
        {notSent.map((n) => (
          <div key={n} className="muted" data-testid="team-not-sent">
            {n}
          </div>
        ))}
      </td>
      <td>
        <Controls row={row} />
      </td>
    </tr>
  );
}

/** Every worker up now, busy or idle; a standing one (`run --watch --store`) picks up new batches. */
function WorkersUp({ workers }: { workers: TeamView['workersUp'] }) {
  if (workers.length === 0) {
    return (
      <p className="muted" data-testid="team-workers-up">
        No worker is up. Start one on any computer with <code>batchdesk run --store URL</code> (<code>run --watch --store URL</code> keeps it standing).
      </p>
    );
  }
  return (
    <p data-testid="team-workers-up">
      Workers up:{' '}
      {workers.map((w, i) => (
        <span key={w.worker}>
          {i > 0 ? ', ' : ''}
          <span className="mono">{w.worker}</span> ({workerState(w, formatCount)}, since {new Date(w.startedAt).toLocaleTimeString()})
        </span>
      ))}
    </p>
  );
}

export function TeamScreen() {
  const view = useTeamStore((s) => s.view);
  const error = useTeamStore((s) => s.error);
  useEffect(() => {
    const load = (): void => void useTeamStore.getState().load();
    load();
    const t = window.setInterval(load, REFRESH_MS);
    return () => window.clearInterval(t);
  }, []);

  return (
    <div className="screen">
      <div className="screen__head">
        <h1>Team</h1>
      </div>
      <ErrorAlert message={error === null ? null : `Cannot read the shared store: ${error} (trying again every second).`} />
      {view === undefined ? (
        <p className="muted">Loading…</p>
      ) : view === null ? (
        <p className="muted">
          This Batchdesk works on its data folder only. Start it with <code>npm run web -- --store postgresql://user@host:5432/database</code> to see the
          team&apos;s shared batches.
        </p>
      ) : (
        <>
          <p className="muted" data-testid="team-store">
            Batches of {view.store}, with the workers (<code>batchdesk run --store URL</code> on each computer) sending them now.
          </p>
          <WorkersUp workers={view.workersUp} />
          {view.batches.length === 0 ? (
            <p className="muted">
              No batches in the shared store yet. Create one with <code>batchdesk batch create … --store URL</code>.
            </p>
          ) : (
            <div className="table-wrap">
              <table className="team__table">
                <thead>
                  <tr>
                    <th scope="col">Batch</th>
                    <th scope="col">Status</th>
                    <th scope="col">Progress</th>
                    <th scope="col">Spent</th>
                    <th scope="col">Workers</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {view.batches.map((row) => (
                    <TeamRow key={row.batch.id} row={row} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}
