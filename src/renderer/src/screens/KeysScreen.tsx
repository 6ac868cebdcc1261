// #/keys: the connection, stored keys (add, test, replace, remove), settings (with the phone country), the opt-out list
// (with a list's import), forget a person, the retention rule (what would go, delete now), its log and unit rates.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { ConnectionPanel } from '../keys/ConnectionPanel';
import { KeyForm } from '../keys/KeyForm';
import { KeysTable } from '../keys/KeysTable';
import { OptOutsPanel } from '../keys/OptOutsPanel';
import { ForgetPanel } from '../keys/ForgetPanel';
import { RetentionLogPanel } from '../keys/RetentionLogPanel';
import { RetentionRulePanel } from '../keys/RetentionRulePanel';
import { RatesTable } from '../keys/RatesTable';
import { SettingsForm } from '../keys/SettingsForm';
import { useConnectionStore } from '../store/connection-store';
import '../keys/keys.css';

export function KeysScreen({ section = null }: { section?: 'phone-country' | null }) {
  const { t } = useTranslation('keys');
  const [keys, setKeys] = useState<KeyView[] | null>(null);
  const load = useAction();
  const reloadConnection = useConnectionStore((s) => s.load);
  const { run } = load;
  // A retention rule saved or run: the log below reads itself again.
  const [retentionVersion, setRetentionVersion] = useState(0);
  const reload = useCallback(() => {
    void run(async () => setKeys(await client().call('keys.list', {})));
    void reloadConnection();
  }, [run, reloadConnection]);
  useEffect(reload, [reload]);

  return (
    <div className="screen keys">
      <h1>{t('title')}</h1>
      <ConnectionPanel />
      <section className="card stack" aria-labelledby="keys-heading">
        <h2 id="keys-heading">{t('heading')}</h2>
        <ErrorAlert message={load.error} />
        {keys ? <KeysTable keys={keys} onChanged={reload} /> : load.busy ? <p className="muted">{t('loading')}</p> : null}
        <h3>{t('form.addAria')}</h3>
        <KeyForm onSaved={reload} />
      </section>
      <SettingsForm focusPhoneCountry={section === 'phone-country'} />
      <OptOutsPanel />
      <ForgetPanel />
      <RetentionRulePanel onDeleted={() => setRetentionVersion((v) => v + 1)} />
      <RetentionLogPanel version={retentionVersion} />
      <RatesTable />
    </div>
  );
}
