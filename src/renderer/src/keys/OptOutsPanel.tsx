// The opt-out list in the window: who is never messaged, where each came from; add, import a list and remove.
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from '../components/toast-store';
import type { OptOutView } from '../../../shared/contract';
import { client } from '../client';
import { DoneNote, ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { dayWords } from '../costs/period-words';
import { OptOutImport } from './OptOutImport';

export function OptOutsPanel() {
  const { t } = useTranslation('keys');
  const [list, setList] = useState<OptOutView[] | null>(null);
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const load = useAction();
  const change = useAction();
  const inputId = useId();
  const { run } = load;
  const reload = useCallback(() => void run(async () => setList(await client().call('optouts.list', {}))), [run]);
  useEffect(reload, [reload]);

  const add = () =>
    change.run(async () => {
      setNote(null);
      const r = await client().call('optouts.add', { recipient: text });
      setNote(r.added ? t('optOuts.added', { recipient: r.recipient }) : t('optOuts.already', { recipient: r.recipient }));
      toast(r.added ? tr('common:toast.optOutAdded', { recipient: r.recipient }) : tr('common:toast.optOutAlready', { recipient: r.recipient }));
      setText('');
      reload();
    });
  const remove = (recipient: string) =>
    change.run(async () => {
      setNote(null);
      await client().call('optouts.remove', { recipient });
      setNote(t('optOuts.removed', { recipient }));
      toast(tr('common:toast.optOutRemoved', { recipient }));
      reload();
    });

  return (
    <section className="card stack" aria-labelledby="optouts-heading">
      <h2 id="optouts-heading">{t('optOuts.heading')}</h2>
      <p className="muted">{t('optOuts.intro')}</p>
      <form
        className="optouts__add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>{t('optOuts.recipientField')}</label>
          <input id={inputId} type="text" value={text} placeholder="+44 20 7946 0123" onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit" disabled={change.busy || text.trim() === ''}>
          {t('optOuts.add')}
        </button>
      </form>
      <ErrorAlert message={load.error ?? change.error} />
      <DoneNote message={note} />
      <OptOutImport onImported={reload} />
      {list === null ? null : list.length === 0 ? (
        <p className="muted">{t('optOuts.empty')}</p>
      ) : (
        <table className="keys__table">
          <caption className="visually-hidden">{t('optOuts.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('optOuts.recipient')}</th>
              <th scope="col">{t('optOuts.since')}</th>
              <th scope="col">{t('optOuts.from')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('table.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((o) => (
              <tr key={o.recipient}>
                <td className="mono">{o.recipient}</td>
                <td>{dayWords(o.addedAt.slice(0, 10))}</td>
                <td>{o.source}</td>
                <td>
                  <button type="button" className="link-like" onClick={() => void remove(o.recipient)} disabled={change.busy}>
                    {t('table.remove')}
                    <span className="visually-hidden"> {o.recipient}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
