// The stored keys: label, kind, client, request limit, base URL, last four characters; edit, make
// default, test, replace, remove.
import { Fragment, useState } from 'react';
import type { KeyView } from '../../../shared/contract';
import { client } from '../client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatDateTime } from '../format/time';
import { KeyTest } from './ConnectionPanel';
import { KeyForm } from './KeyForm';
import { KeySettingsForm } from './KeySettingsForm';
import { useConnectionStore } from '../store/connection-store';

export function KeysTable({ keys, onChanged }: { keys: KeyView[]; onChanged(): void }) {
  const [replacing, setReplacing] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<KeyView | null>(null);
  const action = useAction();
  const [note, setNote] = useState<string | null>(null);
  const connection = useConnectionStore((s) => s.connection);
  // keys.test tests the key the engine uses for a kind, so only that key's row offers it.
  const inUse = (k: KeyView): boolean => {
    const used = k.kind === 'api' ? connection?.apiKey : connection?.channelKey;
    return used?.source === 'keychain' && used.label === k.label;
  };

  if (keys.length === 0) {
    return (
      <>
        <p className="muted">No keys stored. The embedded sandbox needs none; add a key to use a real API.</p>
        <ErrorAlert message={action.error} />
        <StatusNote message={note} />
      </>
    );
  }
  return (
    <>
      <div className="table-wrap">
        <table className="keys__table">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Kind</th>
              <th scope="col">Client</th>
              <th scope="col">Limit</th>
              <th scope="col">Base URL</th>
              <th scope="col">Key</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <Fragment key={k.id}>
                <tr>
                  <th scope="row" className="keys__nowrap">
                    {k.label}
                    {k.active ? <span className="keys__active">default</span> : null}
                  </th>
                  <td>{k.kind === 'api' ? 'API' : 'Channel'}</td>
                  <td>{k.client ?? <span className="muted">—</span>}</td>
                  <td className="keys__nowrap">{k.rpm === null ? <span className="muted">general</span> : `${k.rpm}/min`}</td>
                  <td className="mono">{k.baseUrl ?? <span className="muted">default</span>}</td>
                  <td className="mono keys__nowrap">…{k.last4}</td>
                  <td className="keys__nowrap">{formatDateTime(k.createdAt)}</td>
                  <td>
                    <div className="keys__actions">
                      {inUse(k) ? <KeyTest kind={k.kind} label={`Test key ${k.label}`} /> : null}
                      <button
                        type="button"
                        onClick={() => setEditing(editing === k.id ? null : k.id)}
                        aria-expanded={editing === k.id}
                        aria-label={`Edit key ${k.label}`}
                      >
                        Edit
                      </button>
                      {k.active ? null : (
                        <button
                          type="button"
                          aria-label={`Make ${k.label} the default ${k.kind === 'api' ? 'API' : 'channel'} key`}
                          onClick={() =>
                            void action.run(async () => {
                              setNote(null);
                              await client().call('keys.update', { id: k.id, makeDefault: true });
                              setNote(
                                `"${k.label}" is now the default ${k.kind === 'api' ? 'API' : 'channel'} key: new batches without a chosen key send with it.`,
                              );
                              onChanged();
                            })
                          }
                        >
                          Make default
                        </button>
                      )}
                      <button
                        type="button"
                        onClick={() => setReplacing(replacing === k.id ? null : k.id)}
                        aria-expanded={replacing === k.id}
                        aria-label={`Replace key ${k.label}`}
                      >
                        Replace
                      </button>
                      <button type="button" className="danger" onClick={() => setRemoving(k)} aria-label={`Remove key ${k.label}`}>
                        Remove
                      </button>
                    </div>
                  </td>
                </tr>
                {editing === k.id ? (
                  <tr className="keys__replace-row">
                    <td colSpan={8}>
                      <KeySettingsForm
                        keyView={k}
                        onSaved={(saved) => {
                          setEditing(null);
                          setNote(
                            `Saved "${saved.label}": client ${saved.client ?? 'none'}, limit ${saved.rpm === null ? 'the general setting' : `${saved.rpm} requests a minute`}.`,
                          );
                          onChanged();
                        }}
                        onCancel={() => setEditing(null)}
                      />
                    </td>
                  </tr>
                ) : null}
                {replacing === k.id ? (
                  <tr className="keys__replace-row">
                    <td colSpan={8}>
                      <KeyForm
                        replacing={k}
                        onSaved={(saved) => {
                          setReplacing(null);
                          setNote(`Replaced the key "${saved.label}" (ends in ${saved.last4}).`);
                          onChanged();
                        }}
                        onCancel={() => setReplacing(null)}
                      />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the key "${removing?.label ?? ''}"?`}
        confirmLabel="Yes, remove key"
        dismissLabel="Keep key"
        onDismiss={() => setRemoving(null)}
        onConfirm={() => {
          const k = removing;
          setRemoving(null);
          if (k)
            void action.run(async () => {
              setNote(null);
              await client().call('keys.remove', { id: k.id });
              setNote(`Removed the key "${k.label}".`);
              onChanged();
            });
        }}
      >
        <p>It is deleted from the OS keychain. Batches that need this kind of key pause until another one is added.</p>
      </ConfirmDialog>
    </>
  );
}
