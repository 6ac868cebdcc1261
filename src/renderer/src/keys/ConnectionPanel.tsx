// Which API the engine uses and with which keys; a test for each kind of key.
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { useConnectionStore } from '../store/connection-store';

export function KeyTest({ kind, label }: { kind: 'api' | 'channel'; label: string }) {
  const { t } = useTranslation('keys');
  const action = useAction();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  return (
    <span className="key-test">
      <button
        type="button"
        onClick={() =>
          void action.run(async () => {
            setResult(null);
            setResult(await client().call('keys.test', { kind }));
          })
        }
        disabled={action.busy}
        aria-label={label}
      >
        {action.busy ? t('test.busy') : t('test.button')}
      </button>
      <span role="status" className={result ? (result.ok ? 'key-test__ok' : 'key-test__fail') : undefined}>
        {result ? t(result.ok ? 'test.works' : 'test.refused', { message: result.message }) : ''}
      </span>
      <ErrorAlert message={action.error} />
    </span>
  );
}

export function ConnectionPanel() {
  const { t } = useTranslation('keys');
  const connection = useConnectionStore((s) => s.connection);
  const error = useConnectionStore((s) => s.error);
  return (
    <section className="card stack" aria-labelledby="conn-heading">
      <h2 id="conn-heading">{t('connection.heading')}</h2>
      <ErrorAlert message={error} />
      {connection ? (
        <dl className="keys__conn">
          <dt>{t('connection.api')}</dt>
          <dd>
            {connection.sandbox ? (
              <Trans
                t={t}
                i18nKey="connection.sandbox"
                values={{ url: connection.baseUrl }}
                components={[<span key="muted" className="muted" />, <span key="url" className="mono" />]}
              />
            ) : (
              <span className="mono">{connection.baseUrl}</span>
            )}
          </dd>
          <dt>{t('connection.apiKey')}</dt>
          <dd>
            {connection.apiKey ? (
              <>
                {connection.apiKey.label} <span className="muted">{t(`connection.from.${connection.apiKey.source}`)}</span>
              </>
            ) : (
              <span className="muted">{t('connection.none')}</span>
            )}{' '}
            <KeyTest kind="api" label={t('connection.testApi')} />
          </dd>
          <dt>{t('connection.channelKey')}</dt>
          <dd>
            {connection.channelKey ? (
              <>
                {connection.channelKey.label} <span className="muted">{t(`connection.from.${connection.channelKey.source}`)}</span>
              </>
            ) : (
              <span className="muted">{t('connection.none')}</span>
            )}{' '}
            <KeyTest kind="channel" label={t('connection.testChannel')} />
          </dd>
        </dl>
      ) : (
        <p className="muted">{t('loading')}</p>
      )}
    </section>
  );
}
