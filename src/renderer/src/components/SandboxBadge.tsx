// The visible "Sandbox" badge wherever the embedded sandbox API is in use (spend is not real money).
import { useTranslation } from 'react-i18next';
import { useSandbox } from '../store/connection-store';
import './SandboxBadge.css';

export function SandboxBadge({ where = 'header' }: { where?: 'header' | 'spend' }) {
  const sandbox = useSandbox();
  const { t } = useTranslation('shell');
  if (!sandbox) return null;
  return (
    <span className="sandbox-badge" data-testid={where === 'header' ? 'sandbox-badge' : 'sandbox-badge-spend'} title={t('sandbox.title')}>
      {t('sandbox.badge')}
    </span>
  );
}
