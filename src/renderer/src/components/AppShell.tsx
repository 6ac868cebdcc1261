// The frame around every screen: header (name, connection, Sandbox badge), left navigation, main.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { client } from '../client';
import type { Route } from '../routing/route';
import { navigate } from '../routing/use-route';
import { useConnectionStore } from '../store/connection-store';
import { useRunnerStore } from '../store/runner-store';
import { useEngineStore } from '../store/engine-store';
import { ErrorAlert } from './ErrorAlert';
import { SandboxBadge } from './SandboxBadge';
import './AppShell.css';

const NAV: { name: Route['name']; href: string; label: string }[] = [
  { name: 'batches', href: '#/batches', label: 'Batches' },
  { name: 'new', href: '#/new', label: 'New batch' },
  { name: 'watch', href: '#/watch', label: 'Watch folders' },
  { name: 'costs', href: '#/costs', label: 'Costs' },
  { name: 'keys', href: '#/keys', label: 'Keys & rates' },
];

/** One search box across every batch, in the header of every screen. */
function GlobalSearch({ current }: { current: string }) {
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  return (
    <form
      role="search"
      className="shell__search"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== '') navigate({ name: 'search', query: text.trim(), semantic: false });
      }}
    >
      <label htmlFor="global-search" className="visually-hidden">
        Search all batches
      </label>
      <input id="global-search" type="search" value={text} placeholder="Search all results…" onChange={(e) => setText(e.target.value)} />
      <button type="submit">Search</button>
    </form>
  );
}

function ConnectionLine() {
  const connection = useConnectionStore((s) => s.connection);
  const error = useConnectionStore((s) => s.error);
  if (error) return <ErrorAlert message={`Cannot reach the engine: ${error}`} className="shell__conn-error" />;
  if (!connection) return <span className="shell__conn muted">Connecting…</span>;
  return (
    <span className="shell__conn" title={connection.baseUrl}>
      {connection.sandbox ? 'Embedded sandbox API' : connection.baseUrl}
    </span>
  );
}

/** Shown while the browser host is unreachable (stopped, crashed, restarting): progress is not live then. */
function LinkLost() {
  const [up, setUp] = useState(true);
  const [seenUp, setSeenUp] = useState(false);
  useEffect(
    () =>
      client().onLink((u) => {
        setUp(u);
        if (u) setSeenUp(true);
      }),
    [],
  );
  if (up || !seenUp) return null;
  return (
    <p role="alert" className="shell__link-lost">
      Lost the connection to the Batchdesk host; what you see may be out of date. Reconnecting… (if it stopped, start it again: unfinished batches continue.)
    </p>
  );
}

/** The engine's process died and is being restarted, or was given up on: what is shown may be behind. */
function EngineNotice() {
  const status = useEngineStore((s) => s.status);
  if (!status || status.state === 'running') return null;
  return (
    <p role="alert" className="shell__link-lost" data-testid="engine-notice">
      {status.message ?? (status.state === 'restarting' ? 'The engine stopped unexpectedly; restarting…' : 'The engine stopped.')}
      {status.state === 'restarting' ? ' What you see may be out of date until it is back; nothing saved is lost.' : ''}
    </p>
  );
}

/** Another process sends from this data folder, or sending stopped (a full disk): say so everywhere. */
function RunnerNotice() {
  const status = useRunnerStore((s) => s.status);
  if (!status || (status.state !== 'blocked' && status.state !== 'stopped') || !status.reason) return null;
  return (
    <p role="status" className="shell__runner-notice" data-testid="runner-notice">
      {status.state === 'blocked' ? 'Another Batchdesk is sending. ' : 'Sending stopped. '}
      {status.reason}
    </p>
  );
}

export function AppShell({ route, title, children }: { route: Route; title: string; children: ReactNode }) {
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);
  const current = route.name === 'batch' || route.name === 'compare' ? 'batches' : route.name === 'statement' ? 'costs' : route.name;

  // Each screen change announces itself: the title, and focus to the screen's main region.
  useEffect(() => {
    document.title = `${title} · Batchdesk`;
  }, [title]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const h1 = mainRef.current?.querySelector('h1');
    if (h1 instanceof HTMLElement) {
      h1.tabIndex = -1;
      h1.focus({ preventScroll: false });
    }
  }, [route.name, route.name === 'batch' ? route.id : '']);

  return (
    <div className="shell">
      <header className="shell__header">
        {/* Hash routing owns the URL fragment, so the skip link is a button that moves focus. */}
        <button
          type="button"
          className="shell__skip"
          onClick={() => {
            const h1 = mainRef.current?.querySelector('h1');
            if (h1 instanceof HTMLElement) {
              h1.tabIndex = -1;
              h1.focus();
            }
          }}
        >
          Skip to main content
        </button>
        <a className="shell__brand" href="#/batches">
          Batchdesk
        </a>
        <GlobalSearch current={route.name === 'search' ? route.query : ''} />
        <div className="shell__status">
          <ConnectionLine />
          <SandboxBadge />
        </div>
      </header>
      <nav className="shell__nav" aria-label="Main">
        <ul>
          {NAV.map((n) => (
            <li key={n.name}>
              <a href={n.href} aria-current={current === n.name ? 'page' : undefined}>
                {n.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="shell__main" ref={mainRef}>
        <LinkLost />
        <EngineNotice />
        <RunnerNotice />
        {children}
      </main>
    </div>
  );
}
