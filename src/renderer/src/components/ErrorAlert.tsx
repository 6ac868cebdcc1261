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

/** A quiet confirmation ("Saved.") announced politely. */
export function StatusNote({ message }: { message: string | null | undefined }) {
  return (
    <p role="status" className={message ? 'status-note' : 'status-note status-note--empty'}>
      {message ?? ''}
    </p>
  );
}
