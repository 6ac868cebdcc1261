// Marks a result the built-in sandbox made up (shared/made-up.ts): in the job table an asterisk
// beside the result (explained once at the column's head, not a badge on every row), in the job
// dialog a notice above it, so no made-up result passes as real.
import { useTranslation } from 'react-i18next';
import './SandboxBadge.css';

/** A made-up result's mark in its row: a small asterisk with the explanation as its tooltip (the column's head says what it means). */
export function MadeUpMark() {
  const { t } = useTranslation('common');
  return (
    <span className="made-up-mark" role="img" aria-label={t('madeUp.tag')} title={t('madeUp.words')} data-testid="made-up-tag">
      *
    </span>
  );
}

/** At the head of the result column, once: what the asterisk on a result means. */
export function MadeUpColumnTag() {
  const { t } = useTranslation('common');
  return (
    <span className="sandbox-badge sandbox-badge--small made-up-legend" title={t('madeUp.legendTitle')} data-testid="made-up-legend">
      {t('madeUp.legend')}
    </span>
  );
}

/**
 * A result the built-in sandbox read from what the file itself carries (a PDF's text, a recording's
 * script): a real reading, not made up. Said so that "not made up" is not read as "from the real API".
 */
export function ReadBySandboxNotice() {
  const { t } = useTranslation('common');
  return (
    <p className="made-up-notice made-up-notice--read" role="note" data-testid="read-by-sandbox-notice">
      <span className="sandbox-badge">{t('madeUp.readTag')}</span> {t('madeUp.readWords')}
    </p>
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
