// Adds a key (or replaces one: same label and kind, a new secret). The secret field is a
// password input, cleared as soon as the form is submitted; it never comes back from the engine.
import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from '../components/toast-store';
import type { KeyView } from '../../../shared/contract';
import { client } from '../client';
import { DoneNote, ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

const LABEL_RE = /^[\w.@-]{1,64}$/;

interface Props {
  /** Replace mode: the key whose secret is replaced. */
  replacing?: KeyView;
  onSaved(key: KeyView): void;
  onCancel?(): void;
}

export function KeyForm({ replacing, onSaved, onCancel }: Props) {
  const { t } = useTranslation('keys');
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
      if (!LABEL_RE.test(label)) throw new Error(t('form.badLabel'));
      if (typed.length < 8) throw new Error(t('form.shortKey'));
      let url: string | null = null;
      if (baseUrl.trim() !== '') {
        try {
          url = new URL(baseUrl.trim()).toString();
        } catch {
          throw new Error(t('form.badUrl', { url: baseUrl }));
        }
      }
      const limit = rpm.trim() === '' ? null : Number(rpm.trim());
      if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 100_000)) throw new Error(t('form.badLimit', { got: rpm }));
      // Replacing a secret keeps the key's limit; a new key gets the one typed (or the general setting).
      const saved = await client().call('keys.add', {
        kind,
        label,
        secret: typed,
        client: clientName.trim() || null,
        baseUrl: url,
        ...(replacing ? {} : { rpm: limit }),
      });
      setNote(replacing ? t('form.replaced', { label: saved.label, last4: saved.last4 }) : t('form.added', { label: saved.label, last4: saved.last4 }));
      if (!replacing) {
        setLabel('');
        setClientName('');
        setBaseUrl('');
        setRpm('');
      }
      toast(tr('common:toast.keySaved', { label: saved.label }));
      onSaved(saved);
    });
  };

  return (
    <form className="key-form" onSubmit={submit} aria-label={replacing ? t('form.replaceAria', { label: replacing.label }) : t('form.addAria')}>
      {replacing ? (
        <p className="muted">
          <Trans
            t={t}
            i18nKey={replacing.kind === 'api' ? 'form.newSecretApi' : 'form.newSecretChannel'}
            values={{ label: replacing.label }}
            components={[<strong key="label" />]}
          />
        </p>
      ) : (
        <div className="key-form__grid">
          <div className="field">
            <label htmlFor={`${id}-kind`}>{t('form.kind')}</label>
            <select id={`${id}-kind`} aria-describedby={`${id}-kind-hint`} value={kind} onChange={(e) => setKind(e.target.value as 'api' | 'channel')}>
              <option value="api">{t('kind.apiKey')}</option>
              <option value="channel">{t('kind.channelKey')}</option>
            </select>
            <span id={`${id}-kind-hint`} className="field-hint">
              {kind === 'api' ? t('form.kindApiHint') : t('form.kindChannelHint')}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-label`}>{t('form.label')}</label>
            <input id={`${id}-label`} type="text" value={label} required onChange={(e) => setLabel(e.target.value)} placeholder={t('form.labelExample')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-client`}>{t('form.clientOptional')}</label>
            <input id={`${id}-client`} type="text" value={clientName} onChange={(e) => setClientName(e.target.value)} placeholder={t('form.clientExample')} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-rpm`}>{t('form.limitOptional')}</label>
            <input
              id={`${id}-rpm`}
              type="number"
              min={1}
              max={100000}
              inputMode="numeric"
              value={rpm}
              onChange={(e) => setRpm(e.target.value)}
              placeholder={t('form.generalSetting')}
              aria-describedby={`${id}-rpm-hint`}
            />
            <span id={`${id}-rpm-hint`} className="field-hint">
              {t('form.limitHint')}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-url`}>{t('form.baseUrlOptional')}</label>
            <input id={`${id}-url`} type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder={t('form.urlExample')} />
          </div>
        </div>
      )}
      <div className="key-form__secret">
        <div className="field">
          <label htmlFor={`${id}-secret`}>{replacing ? t('form.newSecret') : t('form.secret')}</label>
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
          {replacing ? t('form.saveNew') : t('form.add')}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            {t('cancel')}
          </button>
        ) : null}
      </div>
      <p className="field-hint">{t('form.storedHint')}</p>
      <ErrorAlert message={action.error} />
      <DoneNote message={note} />
    </form>
  );
}
