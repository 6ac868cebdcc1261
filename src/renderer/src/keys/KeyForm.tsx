// Adds a key (or replaces one: same label and kind, a new secret). The secret field is a
// password input, cleared as soon as the form is submitted; it never comes back from the engine.
import { useId, useState, type FormEvent } from 'react';
import type { KeyView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert, StatusNote } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

const LABEL_RE = /^[\w.@-]{1,64}$/;

interface Props {
  /** Replace mode: the key whose secret is replaced. */
  replacing?: KeyView;
  onSaved(key: KeyView): void;
  onCancel?(): void;
}

export function KeyForm({ replacing, onSaved, onCancel }: Props) {
  const action = useAction();
  const [kind, setKind] = useState<'api' | 'channel'>(replacing?.kind ?? 'api');
  const [label, setLabel] = useState(replacing?.label ?? '');
  const [clientName, setClientName] = useState(replacing?.client ?? '');
  const [baseUrl, setBaseUrl] = useState(replacing?.baseUrl ?? '');
  const [rpm, setRpm] = useState('');
  const [secret, setSecret] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const id = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = secret;
    setSecret('');
    setNote(null);
    void action.run(async () => {
      if (!LABEL_RE.test(label)) throw new Error('The label may hold letters, digits and . _ @ - (up to 64 characters).');
      if (typed.length < 8) throw new Error('The key is shorter than 8 characters: paste the whole key.');
      let url: string | null = null;
      if (baseUrl.trim() !== '') {
        try {
          url = new URL(baseUrl.trim()).toString();
        } catch {
          throw new Error(`"${baseUrl}" is not a URL (for example https://api.example.com).`);
        }
      }
      const limit = rpm.trim() === '' ? null : Number(rpm.trim());
      if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 100_000))
        throw new Error(`The request limit is a whole number of requests per minute from 1 to 100000 (got "${rpm}"), or empty for the general setting.`);
      // Replacing a secret keeps the key's limit; a new key gets the one typed (or the general setting).
      const saved = await client().call('keys.add', {
        kind,
        label,
        secret: typed,
        client: clientName.trim() || null,
        baseUrl: url,
        ...(replacing ? {} : { rpm: limit }),
      });
      setNote(replacing ? `Replaced the key "${saved.label}" (ends in ${saved.last4}).` : `Added the key "${saved.label}" (ends in ${saved.last4}).`);
      if (!replacing) {
        setLabel('');
        setClientName('');
        setBaseUrl('');
        setRpm('');
      }
      onSaved(saved);
    });
  };

  return (
    <form className="key-form" onSubmit={submit} aria-label={replacing ? `Replace key ${replacing.label}` : 'Add a key'}>
      {replacing ? (
        <p className="muted">
          A new secret for <strong>{replacing.label}</strong> ({replacing.kind === 'api' ? 'API' : 'channel'} key). The old one is removed from the keychain.
        </p>
      ) : (
        <div className="key-form__grid">
          <div className="field">
            <label htmlFor={`${id}-kind`}>Kind</label>
            <select id={`${id}-kind`} aria-describedby={`${id}-kind-hint`} value={kind} onChange={(e) => setKind(e.target.value as 'api' | 'channel')}>
              <option value="api">API key</option>
              <option value="channel">Channel key</option>
            </select>
            <span id={`${id}-kind-hint`} className="field-hint">
              {kind === 'api' ? 'Transcription and OCR requests.' : 'Messages, calls and email.'}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-label`}>Label</label>
            <input id={`${id}-label`} type="text" value={label} required onChange={(e) => setLabel(e.target.value)} placeholder="acme" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-client`}>Client (optional)</label>
            <input id={`${id}-client`} type="text" value={clientName} onChange={(e) => setClientName(e.target.value)} placeholder="ACME GmbH" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-rpm`}>Request limit per minute (optional)</label>
            <input
              id={`${id}-rpm`}
              type="number"
              min={1}
              max={100000}
              inputMode="numeric"
              value={rpm}
              onChange={(e) => setRpm(e.target.value)}
              placeholder="general setting"
              aria-describedby={`${id}-rpm-hint`}
            />
            <span id={`${id}-rpm-hint`} className="field-hint">
              The key&apos;s own limit, as the API&apos;s panel shows it.
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-url`}>Base URL (optional)</label>
            <input id={`${id}-url`} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://api.example.com" />
          </div>
        </div>
      )}
      <div className="key-form__secret">
        <div className="field">
          <label htmlFor={`${id}-secret`}>{replacing ? 'New secret key' : 'Secret key'}</label>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={secret}
            required
            onChange={(e) => setSecret(e.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={action.busy}>
          {replacing ? 'Save new key' : 'Add key'}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <p className="field-hint">Stored in the OS keychain. Batchdesk shows only its last four characters from now on.</p>
      <ErrorAlert message={action.error} />
      <StatusNote message={note} />
    </form>
  );
}
