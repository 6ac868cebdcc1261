// Which stored key a new batch sends with (a client's key): shown when keys of the batch's kind
// are stored. The default key is the one marked default on Keys & rates (or the environment's).
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { t as tr } from '../i18n';
import type { KeyView } from '../../../shared/contract';
import { describe } from '../../../shared/capabilities/catalog';
import { client } from '../client';
import { useDraftStore } from './draft-store';

function keyText(k: KeyView): string {
  return [k.label, k.client, k.rpm === null ? null : tr('newBatch:key.perMinute', { n: k.rpm })].filter((p) => p !== null).join(' · ');
}

export function KeyChoice() {
  const d = useDraftStore();
  const { t } = useTranslation('newBatch');
  const id = useId();
  const [keys, setKeys] = useState<KeyView[]>([]);
  useEffect(() => {
    let live = true;
    // No keys (the sandbox, or keys not readable): no select; the batch uses the default.
    client()
      .call('keys.list', {})
      .then((k) => live && setKeys(k))
      .catch(() => live && setKeys([]));
    return () => {
      live = false;
    };
  }, []);
  const kind = describe(d.capability).credential;
  const ofKind = keys.filter((k) => k.kind === kind);
  const chosen = ofKind.some((k) => k.label === d.keyLabel) ? d.keyLabel : '';
  const { set } = d;
  // A key of the other kind (the capability changed) is not this batch's: back to the default.
  useEffect(() => {
    if (d.keyLabel !== '' && keys.length > 0 && chosen === '') set({ keyLabel: '' });
  }, [d.keyLabel, chosen, keys.length, set]);
  if (ofKind.length === 0) return null;
  const def = ofKind.find((k) => k.active);
  return (
    <div className="field">
      <label htmlFor={id}>{t('key.label')}</label>
      <select id={id} value={chosen} aria-describedby={`${id}-hint`} onChange={(e) => set({ keyLabel: e.target.value })}>
        <option value="">{def ? t('key.defaultOf', { key: keyText(def) }) : t('key.default')}</option>
        {ofKind.map((k) => (
          <option key={k.id} value={k.label}>
            {keyText(k)}
          </option>
        ))}
      </select>
      <span id={`${id}-hint`} className="field-hint">
        {t('key.hint')}
      </span>
    </div>
  );
}
