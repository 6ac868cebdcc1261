// The retention log in the window, as `batchdesk retention log` prints it: every deletion the
// retention rules made (what, when, by which rule), newest first, and the data folder's default rule.
import { retentionRuleWords } from './retention-rule-words';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RetentionLogView } from '../../../shared/contract';
import { client } from '../client';
import { ErrorAlert } from '../components/ErrorAlert';
import { useAction } from '../hooks/use-action';
import { formatDateTime } from '../format/time';
import { RETENTION_KIND_KEYS } from './retention-kind-words';

/** `version`: a change made elsewhere on the screen (a rule saved, a deletion run) reads the log again. */
export function RetentionLogPanel({ version = 0 }: { version?: number }) {
  const { t } = useTranslation('keys');
  const [log, setLog] = useState<RetentionLogView | null>(null);
  const load = useAction();
  const { run } = load;
  const reload = useCallback(() => void run(async () => setLog(await client().call('retention.log', { limit: 200 }))), [run]);
  useEffect(reload, [reload, version]);

  return (
    <section className="card stack" aria-labelledby="retention-heading">
      <h2 id="retention-heading">{t('retention.heading')}</h2>
      <p className="muted">{t('retention.intro')}</p>
      {log ? (
        <p data-testid="retention-default">
          {t('retention.defaultRule', {
            files: log.defaults.keepFilesDays === null ? t('retention.filesKept') : t('retention.filesGo', { count: log.defaults.keepFilesDays }),
            results: log.defaults.keepResultsDays === null ? t('retention.resultsKept') : t('retention.resultsGo', { count: log.defaults.keepResultsDays }),
          })}
        </p>
      ) : null}
      <ErrorAlert message={load.error} />
      {log === null ? null : log.entries.length === 0 ? (
        <p className="muted">{t('retention.none')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{t('retention.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('retention.when')}</th>
                <th scope="col">{t('retention.what')}</th>
                <th scope="col">{t('retention.rule')}</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((e) => (
                <tr key={`${e.at}:${e.kind}:${e.what}`}>
                  <td className="tabular">{formatDateTime(e.at)}</td>
                  <td>
                    {t(RETENTION_KIND_KEYS[e.kind])}: <span className="mono">{e.what}</span>
                  </td>
                  <td>{retentionRuleWords(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div>
        <button type="button" onClick={reload} disabled={load.busy}>
          {t('retention.refresh')}
        </button>
      </div>
    </section>
  );
}
