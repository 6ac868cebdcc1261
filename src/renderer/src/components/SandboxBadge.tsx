// The visible "Sandbox" badge while the embedded sandbox API is in use (spend is not real money):
// once, in the header, on every screen.
import { useTranslation } from 'react-i18next';
import { useSandbox } from '../store/connection-store';
import './SandboxBadge.css';

export function SandboxBadge() {
  const sandbox = useSandbox();
  const { t } = useTranslation('shell');
  if (!sandbox) return null;
  return (
    <span className="sandbox-badge" data-testid="sandbox-badge" title={t('sandbox.title')}>
      {t('sandbox.badge')}
    </span>
  );
}
