// Holds the live API connection for a long-running process (window or browser host) and
// rebuilds it when the API URL setting or the keys change. The embedded sandbox is started
// once and kept while it is the target.
import type { Engine } from '../engine/engine';
import { connect, type Connection } from '../compose/connect';
import type { Connection as ConnectionView } from '../../shared/contract';

export class ConnectionManager {
  private current: Promise<Connection> | null = null;
  private currentUrl: string | null | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly env: NodeJS.ProcessEnv,
    /** --api-url given at launch wins over the setting. */
    private readonly launchApiUrl: string | null,
  ) {}

  private wantedUrl(): string | null {
    return this.launchApiUrl ?? this.engine.settings.get('api_url');
  }

  get(): Promise<Connection> {
    const url = this.wantedUrl();
    if (!this.current || url !== this.currentUrl) {
      const previous = this.current;
      this.currentUrl = url;
      this.current = (async () => {
        if (previous) await (await previous.catch(() => null))?.close();
        return connect({ apiUrl: url, env: this.env, keys: this.engine.keys, dataDir: this.engine.dataDir });
      })();
      // A failed connect must not stick: the next call tries again.
      this.current.catch(() => {
        this.current = null;
      });
    }
    return this.current;
  }

  async view(): Promise<ConnectionView> {
    const c = await this.get();
    const key = async (kind: 'api' | 'channel') => {
      try {
        const k = await c.target.resolveKey(kind);
        return k ? { label: k.label, source: k.source } : null;
      } catch {
        return null;
      }
    };
    return { sandbox: c.target.sandbox, baseUrl: c.target.baseUrl, description: c.description, apiKey: await key('api'), channelKey: await key('channel') };
  }

  async close(): Promise<void> {
    const c = this.current;
    this.current = null;
    if (c) await (await c.catch(() => null))?.close();
  }
}
