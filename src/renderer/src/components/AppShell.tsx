// The frame around every screen: header (name, connection, Sandbox badge), left navigation, main.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../client';
import type { Route } from '../routing/route';
import { navigate } from '../routing/use-route';
import { useConnectionStore } from '../store/connection-store';
import { useRunnerStore } from '../store/runner-store';
import { useEngineStore } from '../store/engine-store';
import { ErrorAlert } from './ErrorAlert';
import { SandboxBadge } from './SandboxBadge';
import { Icon, NAV_ICON } from './icons';
import { Toaster } from './Toaster';
import './AppShell.css';

const NAV: { name: 'batches' | 'new' | 'watch' | 'costs' | 'keys'; href: string }[] = [
  { name: 'batches', href: '#/batches' },
  { name: 'new', href: '#/new' },
  { name: 'watch', href: '#/watch' },
  { name: 'costs', href: '#/costs' },
  { name: 'keys', href: '#/keys' },
];

/** One search box across every batch, in the header of every screen. */
function GlobalSearch({ current }: { current: string }) {
  const { t } = useTranslation('shell');
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
        {t('search.label')}
      </label>
      <input id="global-search" type="search" value={text} placeholder={t('search.placeholder')} onChange={(e) => setText(e.target.value)} />
      <button type="submit">{t('search.button')}</button>
    </form>
  );
}

function ConnectionLine() {
  const { t } = useTranslation('shell');
  const connection = useConnectionStore((s) => s.connection);
  const error = useConnectionStore((s) => s.error);
  if (error) return <ErrorAlert message={t('connection.unreachable', { error })} className="shell__conn-error" />;
  if (!connection) return <span className="shell__conn muted">{t('connection.connecting')}</span>;
  return (
    <span className="shell__conn" title={connection.baseUrl}>
      {connection.sandbox ? t('connection.sandbox') : connection.baseUrl}
    </span>
  );
}

/** Shown while the browser host is unreachable (stopped, crashed, restarting): progress is not live then. */
function LinkLost() {
  const { t } = useTranslation('shell');
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
      {t('linkLost')}
    </p>
  );
}

/** The engine's process died and is being restarted, or was given up on: what is shown may be behind. */
function EngineNotice() {
  const { t } = useTranslation('shell');
  const status = useEngineStore((s) => s.status);
  if (!status || status.state === 'running') return null;
  return (
    <p role="alert" className="shell__link-lost" data-testid="engine-notice">
      {status.message ?? (status.state === 'restarting' ? t('engine.restarting') : t('engine.stopped'))}
      {status.state === 'restarting' ? ` ${t('engine.outOfDate')}` : ''}
    </p>
  );
}

/** Another process sends from this data folder, or sending stopped (a full disk): say so everywhere. */
function RunnerNotice() {
  const { t } = useTranslation('shell');
  const status = useRunnerStore((s) => s.status);
  if (!status || (status.state !== 'blocked' && status.state !== 'stopped') || !status.reason) return null;
  return (
    <p role="status" className="shell__runner-notice" data-testid="runner-notice">
      {status.state === 'blocked' ? `${t('runner.blocked')} ` : `${t('runner.stopped')} `}
      {status.reason}
    </p>
  );
}

export function AppShell({ route, title, children }: { route: Route; title: string; children: ReactNode }) {
  const { t } = useTranslation('shell');
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
          {t('skip')}
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
      <nav className="shell__nav" aria-label={t('nav.label')}>
        <ul>
          {NAV.map((n) => (
            <li key={n.name}>
              <a href={n.href} aria-current={current === n.name ? 'page' : undefined}>
                <Icon icon={NAV_ICON[n.name]} />
                {t(`nav.${n.name}`)}
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
        <Toaster />
      </main>
    </div>
  );
}
