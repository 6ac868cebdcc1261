// /admin routes: the "panel" of the sandbox. Bearer adminToken; manages keys, shows the ledger
// and usage, and flips fault switches. Inputs are validated with the schemas SandboxAdmin uses.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { CreateKeyInput, FaultsPatch, LedgerFilter, ResetInput, UpdateKeyInput } from './admin-schemas';
import { bearerOf } from './auth';
import type { FaultController } from './faults';
import { ApiError, describeIssues, errorOutcome, jsonOutcome, parseJsonText, readSmallBody, writeOutcome, type Outcome } from './http';
import type { RateLimiter } from './rate-limit';
import type { SandboxStore } from './store';

export interface AdminDeps {
  store: SandboxStore;
  faults: FaultController;
  limiter: RateLimiter;
  adminToken: string;
}

function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

async function body<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.output<S>> {
  const raw = await readSmallBody(req, 1024 * 1024);
  const parsed = raw.length === 0 ? { ok: true as const, value: {} } : parseJsonText(raw);
  if (!parsed.ok) throw new ApiError(400, 'invalid_json', parsed.message);
  const r = schema.safeParse(parsed.value);
  if (!r.success) throw new ApiError(422, 'invalid_field', describeIssues(r.error));
  return r.data;
}

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL, deps: AdminDeps): Promise<void> {
  let outcome: Outcome;
  try {
    const token = bearerOf(req);
    if (token === null || !sameSecret(token, deps.adminToken)) throw new ApiError(401, 'invalid_admin_token', 'Send Authorization: Bearer <admin token>.');
    outcome = await route(req, url, deps);
  } catch (e) {
    outcome = errorOutcome(e instanceof ApiError ? e : new ApiError(500, 'internal_error', e instanceof Error ? e.message : String(e)));
  }
  writeOutcome(res, outcome);
}

async function route(req: IncomingMessage, url: URL, deps: AdminDeps): Promise<Outcome> {
  const { store, faults, limiter } = deps;
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const keyAction = /^\/admin\/keys\/([^/]+)(\/revoke)?$/.exec(path);

  if (path === '/admin/keys' && method === 'POST') {
    const input = await body(req, CreateKeyInput);
    return jsonOutcome(201, store.createKey(input));
  }
  if (path === '/admin/keys' && method === 'GET') return jsonOutcome(200, { keys: store.listKeys() });
  if (keyAction && keyAction[2] === '/revoke' && method === 'POST') {
    const key = store.revokeKey(keyAction[1] ?? '');
    if (!key) throw new ApiError(404, 'not_found', 'No such key.');
    return jsonOutcome(200, key);
  }
  if (keyAction && !keyAction[2] && method === 'PATCH') {
    const patch = await body(req, UpdateKeyInput);
    const key = store.updateKey(keyAction[1] ?? '', patch);
    if (!key) throw new ApiError(404, 'not_found', 'No such key.');
    return jsonOutcome(200, key);
  }
  if (keyAction && !keyAction[2] && method === 'GET') {
    const key = store.getKey(keyAction[1] ?? '');
    if (!key) throw new ApiError(404, 'not_found', 'No such key.');
    return jsonOutcome(200, key);
  }
  if (path === '/admin/ledger' && method === 'GET') {
    const filter = LedgerFilter.safeParse(Object.fromEntries(url.searchParams));
    if (!filter.success) throw new ApiError(422, 'invalid_field', describeIssues(filter.error));
    return jsonOutcome(200, { deliveries: store.ledger(filter.data) });
  }
  if (path === '/admin/usage' && method === 'GET') return jsonOutcome(200, store.usage());
  if (path === '/admin/faults' && method === 'GET') return jsonOutcome(200, faults.state());
  if (path === '/admin/faults' && method === 'PUT') return jsonOutcome(200, faults.update(await body(req, FaultsPatch)));
  if (path === '/admin/reset' && method === 'POST') {
    await body(req, ResetInput);
    store.resetActivity();
    faults.reset();
    limiter.reset();
    return jsonOutcome(200, { ok: true });
  }
  throw new ApiError(404, 'not_found', `No admin route ${method} ${path}.`);
}
