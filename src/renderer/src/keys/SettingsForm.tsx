// Engine settings: concurrency, request limit, attempts, messaging app name, API URL.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { useConnectionStore } from '../store/connection-store';

interface Draft {
  concurrency: string;
  rpm: string;
  maxAttempts: string;
  messagingChannel: string;
  apiUrl: string;
}

const toDraft = (s: SettingsView): Draft => ({
  concurrency: String(s.concurrency),
  rpm: String(s.rpm),
  maxAttempts: String(s.maxAttempts),
  messagingChannel: s.messagingChannel,
  apiUrl: s.apiUrl ?? '',
});

function int(text: string, name: string, min: number, max: number): number {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < min || Number(t) > max) throw new Error(`${name} must be a whole number from ${min} to ${max}.`);
  return Number(t);
}

function parse(d: Draft): SettingsView {
  const messagingChannel = d.messagingChannel.trim().toLowerCase();
  if (!/^[a-z][a-z0-9_-]{1,31}$/.test(messagingChannel)) throw new Error('The messaging app name takes lowercase letters, digits, "-" and "_" (2 to 32 characters, starting with a letter).');
  let apiUrl: string | null = null;
  if (d.apiUrl.trim() !== '') {
    try {
      apiUrl = new URL(d.apiUrl.trim()).toString();
    } catch {
      throw new Error(`"${d.apiUrl}" is not a URL. Leave it empty to use the embedded sandbox.`);
    }
  }
  return {
    concurrency: int(d.concurrency, 'Concurrency', 1, 999),
    rpm: int(d.rpm, 'Requests per minute', 0, 1_000_000),
    maxAttempts: int(d.maxAttempts, 'Maximum attempts', 1, 99),
    messagingChannel,
    apiUrl,
  };
}

export function SettingsForm() {
  const load = useAction();
  const save = useAction();
  const reloadConnection = useConnectionStore((s) => s.load);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    void load.run(async () => setDraft(toDraft(await client().call('settings.get', {}))));
  }, [load.run]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setNote(null);
    void save.run(async () => {
      const saved = await client().call('settings.set', parse(draft));
      setDraft(toDraft(saved));
      setNote('Settings saved. Running batches pick them up on their next request.');
      void reloadConnection();
    });
  };

  const field = (key: keyof Draft, label: string, hint: string, type: 'text' | 'number' | 'url' = 'text') =>
    draft ? (
      <div className="field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          id={`${id}-${key}`}
          type={type}
          value={draft[key]}
          aria-describedby={`${id}-${key}-hint`}
          onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        />
        <span id={`${id}-${key}-hint`} className="field-hint">
          {hint}
        </span>
      </div>
    ) : null;

  return (
    <section className="card stack" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Settings</h2>
      <ErrorAlert message={load.error} />
      {draft ? (
        <form onSubmit={submit} className="stack" aria-label="Settings">
          <div className="keys__settings-grid">
            {field('concurrency', 'Concurrency', 'Requests in flight per key.', 'number')}
            {field('rpm', 'Requests per minute', "The key's request limit; 0 means none.", 'number')}
            {field('maxAttempts', 'Maximum attempts', 'Before a retried item fails.', 'number')}
            {field('messagingChannel', 'Messaging app name', 'Used for messages unless a batch names another (e.g. whatsapp).')}
            {field('apiUrl', 'API URL', 'Empty: the embedded sandbox. A key may bring its own base URL.', 'url')}
          </div>
          <div className="row">
            <button type="submit" className="primary" disabled={save.busy}>
              Save settings
            </button>
          </div>
          <ErrorAlert message={save.error} />
          <StatusNote message={note} />
        </form>
      ) : load.busy ? (
        <p className="muted">Loading…</p>
      ) : null}
    </section>
  );
}
