// Marks a result the built-in sandbox made up (shared/made-up.ts): in the job table a small tag
// beside the result, in the job dialog a notice above it, so no made-up result passes as real.
import { MADE_UP_WORDS } from '../../../shared/made-up';
import './SandboxBadge.css';

export function MadeUpTag() {
  return (
    <span className="sandbox-badge sandbox-badge--small" title={MADE_UP_WORDS} data-testid="made-up-tag">
      Made up
    </span>
  );
}

export function MadeUpNotice() {
  return (
    <p className="made-up-notice" role="note" data-testid="made-up-notice">
      <span className="sandbox-badge">Made up</span> {MADE_UP_WORDS}
    </p>
  );
}
