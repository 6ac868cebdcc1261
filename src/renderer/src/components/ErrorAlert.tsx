// A failed call's message, shown where the action is (role=alert so it is announced).
import './ErrorAlert.css';

export function ErrorAlert({ message, className }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={`error-alert${className ? ` ${className}` : ''}`}>
      {message}
    </p>
  );
}

/** A quiet confirmation ("Saved.") announced politely; for one a toast does not say. */
export function StatusNote({ message }: { message: string | null | undefined }) {
  return (
    <p role="status" className={message ? 'status-note' : 'status-note status-note--empty'}>
      {message ?? ''}
    </p>
  );
}

/**
 * A finished action's line kept in view beside its control. Not a live region: the toast
 * (role=status) announces the action, and a second region would have it said twice.
 */
export function DoneNote({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="status-note" data-testid="done-note">
      {message}
    </p>
  );
}
