// The visible "Sandbox" badge wherever the embedded sandbox API is in use (spend is not real money).
import { useSandbox } from '../store/connection-store';
import './SandboxBadge.css';

export function SandboxBadge({ where = 'header' }: { where?: 'header' | 'spend' }) {
  const sandbox = useSandbox();
  if (!sandbox) return null;
  return (
    <span
      className="sandbox-badge"
      data-testid={where === 'header' ? 'sandbox-badge' : 'sandbox-badge-spend'}
      title="Requests go to the embedded sandbox API: nothing is billed or delivered for real."
    >
      Sandbox
    </span>
  );
}
