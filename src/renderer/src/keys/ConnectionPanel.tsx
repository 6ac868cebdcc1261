// Which API the engine uses and with which keys; a test for each kind of key.
import { useState } from 'react';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { SandboxBadge } from '../components/SandboxBadge';
import { useAction } from '../hooks/use-action';
import { useConnectionStore } from '../store/connection-store';

const SOURCE_LABEL = { env: 'environment variable', keychain: 'OS keychain', sandbox: 'embedded sandbox' } as const;

export function KeyTest({ kind, label }: { kind: 'api' | 'channel'; label: string }) {
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
        {action.busy ? 'Testing…' : 'Test'}
      </button>
      <span role="status" className={result ? (result.ok ? 'key-test__ok' : 'key-test__fail') : undefined}>
        {result ? `${result.ok ? 'Works' : 'Refused'}: ${result.message}` : ''}
      </span>
      <ErrorAlert message={action.error} />
    </span>
  );
}

export function ConnectionPanel() {
  const connection = useConnectionStore((s) => s.connection);
  const error = useConnectionStore((s) => s.error);
  return (
    <section className="card stack" aria-labelledby="conn-heading">
      <div className="row">
        <h2 id="conn-heading">Connection</h2>
        <SandboxBadge where="spend" />
      </div>
      <ErrorAlert message={error} />
      {connection ? (
        <dl className="keys__conn">
          <dt>API</dt>
          <dd>
            {connection.sandbox ? (
              <>
                Embedded sandbox{' '}
                <span className="muted">
                  · <span className="mono">{connection.baseUrl}</span> · nothing reaches a customer
                </span>
              </>
            ) : (
              <span className="mono">{connection.baseUrl}</span>
            )}
          </dd>
          <dt>API key</dt>
          <dd>
            {connection.apiKey ? (
              <>
                {connection.apiKey.label} <span className="muted">from the {SOURCE_LABEL[connection.apiKey.source]}</span>
              </>
            ) : (
              <span className="muted">none</span>
            )}{' '}
            <KeyTest kind="api" label="Test the API key" />
          </dd>
          <dt>Channel key</dt>
          <dd>
            {connection.channelKey ? (
              <>
                {connection.channelKey.label} <span className="muted">from the {SOURCE_LABEL[connection.channelKey.source]}</span>
              </>
            ) : (
              <span className="muted">none</span>
            )}{' '}
            <KeyTest kind="channel" label="Test the channel key" />
          </dd>
        </dl>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
