// Marks a result the built-in sandbox made up (shared/made-up.ts): in the job table a small tag
// beside the result, in the job dialog a notice above it, so no made-up result passes as real.
import { useTranslation } from 'react-i18next';
import './SandboxBadge.css';

export function MadeUpTag() {
  const { t } = useTranslation('common');
  return (
    <span className="sandbox-badge sandbox-badge--small" title={t('madeUp.words')} data-testid="made-up-tag">
      {t('madeUp.tag')}
    </span>
  );
}

export function MadeUpNotice() {
  const { t } = useTranslation('common');
  return (
    <p className="made-up-notice" role="note" data-testid="made-up-notice">
      <span className="sandbox-badge">{t('madeUp.tag')}</span> {t('madeUp.words')}
    </p>
  );
}
