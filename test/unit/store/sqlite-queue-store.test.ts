// The local store against the shared conformance cases (the PostgreSQL store runs the same ones).
import { join } from 'node:path';
import { openDatabase } from '../../../src/main/engine/schema/open-database';
import { SqliteQueueStore } from '../../../src/main/engine/store/sqlite/sqlite-queue-store';
import { FakeClock } from '../../helpers/fake-clock';
import { tempDir } from '../../helpers/temp-dir';
import { queueStoreCases } from '../../conformance/queue-store-cases';

queueStoreCases('SQLite', async () => {
  const dir = tempDir();
  const clock = new FakeClock();
  const store = new SqliteQueueStore(openDatabase(join(dir.path, 'test.sqlite')), clock);
  return {
    store,
    clock,
    close: async () => {
      await store.close();
      dir.cleanup();
    },
  };
});
