// The window: live updates wired once, then the screen for the current hash route.
import { useEffect } from 'react';
import { AppShell } from './components/AppShell';
import { useRoute } from './routing/use-route';
import type { Route } from './routing/route';
import { BatchDetailScreen } from './screens/BatchDetailScreen';
import { BatchesScreen } from './screens/BatchesScreen';
import { CostsScreen } from './screens/CostsScreen';
import { StatementScreen } from './screens/StatementScreen';
import { CompareScreen } from './screens/CompareScreen';
import { KeysScreen } from './screens/KeysScreen';
import { NewBatchScreen } from './screens/NewBatchScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { SearchScreen } from './screens/SearchScreen';
import { WatchFoldersScreen } from './screens/WatchFoldersScreen';
import { startLiveUpdates } from './store/live-updates';
import { useBatchesStore } from './store/batches-store';
import { reportWindowLocale } from './i18n/window-locale';
import { t } from './i18n';

function titleOf(route: Route, batchName: string | undefined): string {
  switch (route.name) {
    case 'batches':
      return t('shell:title.batches');
    case 'batch':
      return batchName ?? t('shell:title.batch');
    case 'new':
      return t('shell:title.new');
    case 'search':
      return route.query ? t('shell:title.searchFor', { query: route.query }) : t('shell:title.search');
    case 'costs':
      return t('shell:title.costs');
    case 'compare':
      return t('shell:title.compare');
    case 'statement':
      return route.client === null
        ? t('shell:title.statementNoClient', { month: route.month })
        : t('shell:title.statement', { month: route.month, client: route.client });
    case 'keys':
      return t('shell:title.keys');
    case 'watch':
      return t('shell:title.watch');
    case 'not_found':
      return t('shell:title.notFound');
  }
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'batches':
      return <BatchesScreen />;
    case 'batch':
      return <BatchDetailScreen key={route.id} id={route.id} jobId={route.jobId} review={route.review ?? false} />;
    case 'new':
      return <NewBatchScreen from={route.from} />;
    case 'search':
      return <SearchScreen key={`${route.semantic}:${route.query}`} query={route.query} semantic={route.semantic} />;
    case 'costs':
      return <CostsScreen />;
    case 'compare':
      return <CompareScreen key={route.group} group={route.group} />;
    case 'statement':
      return <StatementScreen key={`${route.month}:${route.client ?? ''}`} month={route.month} client={route.client} />;
    case 'keys':
      return <KeysScreen section={route.section ?? null} />;
    case 'watch':
      return <WatchFoldersScreen />;
    case 'not_found':
      return <NotFoundScreen hash={route.hash} />;
  }
}

export function App() {
  const route = useRoute();
  const batchName = useBatchesStore((s) => (route.name === 'batch' ? s.byId[route.id]?.name : undefined));
  useEffect(() => startLiveUpdates(), []);
  useEffect(() => void reportWindowLocale(), []);
  return (
    <AppShell route={route} title={titleOf(route, batchName)}>
      <Screen route={route} />
    </AppShell>
  );
}
