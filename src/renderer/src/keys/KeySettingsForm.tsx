// A stored key's client and its own request limit, changed in place (the secret is not touched).
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import { toast } from '../components/toast-store';
import type { KeyView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';

export function KeySettingsForm({ keyView, onSaved, onCancel }: { keyView: KeyView; onSaved(k: KeyView): void; onCancel(): void }) {
  const { t } = useTranslation('keys');
  const action = useAction();
  const id = useId();
  const [clientName, setClientName] = useState(keyView.client ?? '');
  const [rpm, setRpm] = useState(keyView.rpm === null ? '' : String(keyView.rpm));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const limit = rpm.trim() === '' ? null : Number(rpm.trim());
      if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 100_000)) {
        throw new Error(t('form.badLimit', { got: rpm }));
      }
      const saved = await client().call('keys.update', { id: keyView.id, client: clientName.trim() || null, rpm: limit });
      toast(tr('common:toast.keySaved', { label: saved.label }));
      onSaved(saved);
    });
  };

  return (
    <form className="key-form" onSubmit={submit} aria-label={t('table.editAria', { label: keyView.label })}>
      <div className="key-form__grid">
        <div className="field">
          <label htmlFor={`${id}-client`}>{t('form.client')}</label>
          <input id={`${id}-client`} type="text" value={clientName} onChange={(e) => setClientName(e.target.value)} placeholder={t('form.noClient')} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-rpm`}>{t('form.limit')}</label>
          <input
            id={`${id}-rpm`}
            type="number"
            min={1}
            max={100000}
            inputMode="numeric"
            value={rpm}
            onChange={(e) => setRpm(e.target.value)}
            placeholder={t('form.generalSetting')}
          />
        </div>
      </div>
      <p className="field-hint">{t('form.editHint')}</p>
      <div className="key-form__secret">
        <button type="submit" className="primary" disabled={action.busy}>
          {t('save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
      <ErrorAlert message={action.error} />
    </form>
  );
}
