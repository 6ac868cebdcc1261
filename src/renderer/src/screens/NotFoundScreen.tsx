import { Trans, useTranslation } from 'react-i18next';

export function NotFoundScreen({ hash }: { hash: string }) {
  const { t } = useTranslation('shell');
  return (
    <div className="screen">
      <h1>{t('notFound.heading')}</h1>
      <p>
        <Trans t={t} i18nKey="notFound.body" values={{ hash }} components={[<code key="hash" />, <a key="home" href="#/batches" />]} />
      </p>
    </div>
  );
}
