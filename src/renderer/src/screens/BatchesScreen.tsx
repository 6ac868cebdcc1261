// #/batches: every batch in a sortable, filterable table (newest first), kept live by batches.snapshot.
import { useMemo } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { BatchTable } from '../batches/BatchTable';
import { ErrorAlert } from '../components/ErrorAlert';
import { sortBatches, useBatchesStore } from '../store/batches-store';
import './BatchesScreen.css';

export function BatchesScreen() {
  const byId = useBatchesStore((s) => s.byId);
  const loaded = useBatchesStore((s) => s.loaded);
  const error = useBatchesStore((s) => s.error);
  const batches = useMemo(() => sortBatches(byId), [byId]);
  const { t } = useTranslation('batches');
  return (
    <div className="screen">
      <div className="screen__head">
        <h1>{t('heading')}</h1>
        <div className="screen__head-actions">
          <a className="button-link" href="#/new">
            {t('new')}
          </a>
        </div>
      </div>
      <ErrorAlert message={error ? t('loadError', { error }) : null} />
      {!loaded ? <p className="muted">{t('loading')}</p> : null}
      {loaded && batches.length === 0 && !error ? (
        <div className="empty card">
          <p>{t('empty')}</p>
          <p>
            <Trans t={t} i18nKey="emptyHint" components={[<a key="new" href="#/new" />]} />
          </p>
        </div>
      ) : null}
      {batches.length > 0 ? <BatchTable batches={batches} /> : null}
    </div>
  );
}
