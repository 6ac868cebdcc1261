// The stored keys: label, kind, client, request limit, base URL, last four characters; edit, make
// default, test, replace, remove.
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('keys');
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
        <p className="muted">{t('table.none')}</p>
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
              <th scope="col">{t('table.label')}</th>
              <th scope="col">{t('table.kind')}</th>
              <th scope="col">{t('table.client')}</th>
              <th scope="col">{t('table.limit')}</th>
              <th scope="col">{t('table.baseUrl')}</th>
              <th scope="col">{t('table.key')}</th>
              <th scope="col">{t('table.added')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('table.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <Fragment key={k.id}>
                <tr>
                  <th scope="row" className="keys__nowrap">
                    {k.label}
                    {k.active ? <span className="keys__active">{t('table.default')}</span> : null}
                  </th>
                  <td>{k.kind === 'api' ? t('kind.api') : t('kind.channel')}</td>
                  <td>{k.client ?? <span className="muted">—</span>}</td>
                  <td className="keys__nowrap">{k.rpm === null ? <span className="muted">{t('table.general')}</span> : t('table.perMinute', { n: k.rpm })}</td>
                  <td className="mono">{k.baseUrl ?? <span className="muted">{t('table.defaultUrl')}</span>}</td>
                  <td className="mono keys__nowrap">…{k.last4}</td>
                  <td className="keys__nowrap">{formatDateTime(k.createdAt)}</td>
                  <td>
                    <div className="keys__actions">
                      {inUse(k) ? <KeyTest kind={k.kind} label={t('table.testAria', { label: k.label })} /> : null}
                      <button
                        type="button"
                        onClick={() => setEditing(editing === k.id ? null : k.id)}
                        aria-expanded={editing === k.id}
                        aria-label={t('table.editAria', { label: k.label })}
                      >
                        {t('table.edit')}
                      </button>
                      {k.active ? null : (
                        <button
                          type="button"
                          aria-label={
                            k.kind === 'api' ? t('table.makeDefaultApiAria', { label: k.label }) : t('table.makeDefaultChannelAria', { label: k.label })
                          }
                          onClick={() =>
                            void action.run(async () => {
                              setNote(null);
                              await client().call('keys.update', { id: k.id, makeDefault: true });
                              setNote(k.kind === 'api' ? t('table.nowDefaultApi', { label: k.label }) : t('table.nowDefaultChannel', { label: k.label }));
                              onChanged();
                            })
                          }
                        >
                          {t('table.makeDefault')}
                        </button>
                      )}
                      <button
                        type="button"
                        onClick={() => setReplacing(replacing === k.id ? null : k.id)}
                        aria-expanded={replacing === k.id}
                        aria-label={t('form.replaceAria', { label: k.label })}
                      >
                        {t('table.replace')}
                      </button>
                      <button type="button" className="danger" onClick={() => setRemoving(k)} aria-label={t('table.removeAria', { label: k.label })}>
                        {t('table.remove')}
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
                          const clientWords = saved.client ?? t('table.noClient');
                          setNote(
                            saved.rpm === null
                              ? t('table.savedGeneral', { label: saved.label, client: clientWords })
                              : t('table.savedLimit', { label: saved.label, client: clientWords, n: saved.rpm }),
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
                          setNote(t('form.replaced', { label: saved.label, last4: saved.last4 }));
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
        title={t('table.removeTitle', { label: removing?.label ?? '' })}
        confirmLabel={t('table.removeConfirm')}
        dismissLabel={t('table.removeDismiss')}
        onDismiss={() => setRemoving(null)}
        onConfirm={() => {
          const k = removing;
          setRemoving(null);
          if (k)
            void action.run(async () => {
              setNote(null);
              await client().call('keys.remove', { id: k.id });
              setNote(t('table.removed', { label: k.label }));
              onChanged();
            });
        }}
      >
        <p>{t('table.removeBody')}</p>
      </ConfirmDialog>
    </>
  );
}
