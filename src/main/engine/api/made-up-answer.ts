// Whether an answer says it was made up (docs/api-assumptions.md A21): `"sandbox": true` in a JSON
// answer, or the header `X-Sandbox-Made-Up: true` on an answer that is a file (audio, an image).
import type { ApiResponse } from './request';

export function answerMadeUp(res: ApiResponse): boolean {
  if (res.headers.get('x-sandbox-made-up')?.trim().toLowerCase() === 'true') return true;
  // Most answers never name the field: parsed only when they do.
  if (res.saved || !res.body.includes('"sandbox"')) return false;
  try {
    const v: unknown = JSON.parse(res.body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>).sandbox === true;
  } catch {
    return false;
  }
}

/** The result as stored: with `sandbox: true` when the answer said it was made up. */
export function markedResult(result: unknown, madeUp: boolean): unknown {
  if (!madeUp || typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  return { ...result, sandbox: true };
}
