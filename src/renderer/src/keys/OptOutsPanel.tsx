// The opt-out list in the window: who is never messaged, where each came from; add and remove.
import { useCallback, useEffect, useId, useState } from 'react';
import type { OptOutView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

export function OptOutsPanel() {
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
      setNote(r.added ? `${r.recipient} is on the list: nothing will be sent to it.` : `${r.recipient} was on the list already.`);
      setText('');
      reload();
    });
  const remove = (recipient: string) =>
    change.run(async () => {
      setNote(null);
      await client().call('optouts.remove', { recipient });
      setNote(`${recipient} removed: it can be sent to again.`);
      reload();
    });

  return (
    <section className="card stack" aria-labelledby="optouts-heading">
      <h2 id="optouts-heading">Opt-outs</h2>
      <p className="muted">
        Nobody on this list is sent a message: they are left out when a batch is created and, if they opt out later, just before their message would go. A CSV
        column opt_out (yes) adds its row's recipient; <code>batchdesk optout import FILE</code> adds a whole list.
      </p>
      <form
        className="optouts__add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>Phone number or e-mail address</label>
          <input id={inputId} type="text" value={text} placeholder="+44 20 7946 0123" onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit" disabled={change.busy || text.trim() === ''}>
          Add to opt-outs
        </button>
      </form>
      <ErrorAlert message={load.error ?? change.error} />
      <StatusNote message={note} />
      {list === null ? null : list.length === 0 ? (
        <p className="muted">The list is empty.</p>
      ) : (
        <table className="keys__table">
          <caption className="visually-hidden">Recipients on the opt-out list</caption>
          <thead>
            <tr>
              <th scope="col">Recipient</th>
              <th scope="col">Since</th>
              <th scope="col">From</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((o) => (
              <tr key={o.recipient}>
                <td className="mono">{o.recipient}</td>
                <td>{o.addedAt.slice(0, 10)}</td>
                <td>{o.source}</td>
                <td>
                  <button type="button" className="link-like" onClick={() => void remove(o.recipient)} disabled={change.busy}>
                    Remove<span className="visually-hidden"> {o.recipient}</span>
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
