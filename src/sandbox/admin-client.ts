// Typed HTTP client for the sandbox's /admin routes, used by tests and the CLI. Every answer is
// validated with the same schemas the server validates its input with.
import { z } from 'zod';
import {
  type CreateKeyInput,
  type Delivery,
  type FaultsPatch,
  FaultsState,
  KeyInfo,
  KeysResponse,
  type LedgerFilter,
  LedgerResponse,
  type UpdateKeyInput,
  UsageReport,
} from './admin-schemas';

export type { Delivery, Faults, FaultsPatch, FaultsState, KeyInfo, UsageReport } from './admin-schemas';

export class SandboxAdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export class SandboxAdmin {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly adminToken: string,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  private async call<S extends z.ZodType>(method: string, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // handled below: a non-JSON answer is an error either way
    }
    if (!res.ok) {
      const err = ErrorBody.safeParse(json);
      const code = err.success ? err.data.error.code : null;
      const message = err.success ? err.data.error.message : text.slice(0, 200);
      throw new SandboxAdminError(res.status, code, `${method} ${path} -> HTTP ${res.status}${code ? ` ${code}` : ''}: ${message}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new SandboxAdminError(res.status, null, `${method} ${path}: unexpected response shape`);
    return parsed.data;
  }

  createKey(input: CreateKeyInput): Promise<KeyInfo> {
    return this.call('POST', '/admin/keys', KeyInfo, input);
  }

  revokeKey(id: string): Promise<KeyInfo> {
    return this.call('POST', `/admin/keys/${encodeURIComponent(id)}/revoke`, KeyInfo, {});
  }

  updateKey(id: string, patch: UpdateKeyInput): Promise<KeyInfo> {
    return this.call('PATCH', `/admin/keys/${encodeURIComponent(id)}`, KeyInfo, patch);
  }

  getKey(id: string): Promise<KeyInfo> {
    return this.call('GET', `/admin/keys/${encodeURIComponent(id)}`, KeyInfo);
  }

  async listKeys(): Promise<KeyInfo[]> {
    return (await this.call('GET', '/admin/keys', KeysResponse)).keys;
  }

  async ledger(filter: LedgerFilter = {}): Promise<Delivery[]> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (typeof v === 'string') q.set(k, v);
    const qs = q.toString();
    return (await this.call('GET', `/admin/ledger${qs ? `?${qs}` : ''}`, LedgerResponse)).deliveries;
  }

  usage(): Promise<UsageReport> {
    return this.call('GET', '/admin/usage', UsageReport);
  }

  /** Merges the given switches into the current ones; returns the resulting state. */
  setFaults(f: FaultsPatch): Promise<FaultsState> {
    return this.call('PUT', '/admin/faults', FaultsState, f);
  }

  getFaults(): Promise<FaultsState> {
    return this.call('GET', '/admin/faults', FaultsState);
  }

  /** Turns every fault switch off. */
  clearFaults(): Promise<FaultsState> {
    return this.setFaults({ error_rate: 0, latency_ms: 0, drop_after_work_rate: 0, rate_limit_storm: null });
  }

  /** Clears ledger, usage, idempotency records, CRM and spent; keeps keys; faults off. */
  async reset(): Promise<void> {
    await this.call('POST', '/admin/reset', z.object({ ok: z.literal(true) }), {});
  }
}
