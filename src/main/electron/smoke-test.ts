// `Batchdesk --smoke-test`: proves an installed app works end to end without a person: its data
// folder opens, the window loads (hidden), and one contract call (app.info) goes the way the
// window's calls go (page -> preload -> IPC -> engine). One line on stdout and exit 0, or the
// reason on stderr and exit 1. The release workflow runs it on every built app.
import { z } from 'zod';
import { methods, RpcError } from '../../shared/contract-calls';

export const SMOKE_TEST_FLAG = '--smoke-test';

/** The window as the smoke test uses it. */
export interface SmokeWindow {
  /** Resolves when the page has loaded; rejects with why it did not. */
  loaded(): Promise<void>;
  /** Runs `window.batchdesk.call(method, {})` in the page and returns what the preload answered. */
  callInPage(method: 'app.info'): Promise<unknown>;
}

export type SmokeResult = { ok: true; line: string } | { ok: false; reason: string };

const Answer = z.union([z.object({ ok: z.literal(true), result: methods['app.info'].result }), z.object({ ok: z.literal(false), error: RpcError })]);

export async function runSmokeTest(win: SmokeWindow, timeoutMs = 60_000): Promise<SmokeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    try {
      await Promise.race([win.loaded(), timeout]);
    } catch (e) {
      return { ok: false, reason: `the window did not load: ${message(e)}` };
    }
    let raw: unknown;
    try {
      raw = await Promise.race([win.callInPage('app.info'), timeout]);
    } catch (e) {
      return { ok: false, reason: `the window could not call app.info (is the preload loaded?): ${message(e)}` };
    }
    const answer = Answer.safeParse(raw);
    if (!answer.success) return { ok: false, reason: `app.info answered something unexpected: ${JSON.stringify(raw)?.slice(0, 300)}` };
    if (!answer.data.ok) return { ok: false, reason: `app.info failed: ${answer.data.error.message} (${answer.data.error.code})` };
    const info = answer.data.result;
    return {
      ok: true,
      line: `Batchdesk ${info.version} smoke test passed: the window loaded and answered app.info over ${info.transport}; data folder ${info.dataDir}`,
    };
  } finally {
    clearTimeout(timer);
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
