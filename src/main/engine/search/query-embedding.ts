// A search query's own embedding, asked of the API as batches' items are (POST /v1/embeddings),
// so it lies in the same space as the stored vectors. One small request per semantic query.
import { z } from 'zod';
import type { ApiTarget } from '../api/target';
import { sendRequest } from '../api/http-client';
import { sendTargetOf } from '../api/destination';
import { storedBody } from '../api/stored-body';
import { newIdempotencyKey } from '../queue/idempotency-key';
import { UserError } from '../user-error';

const Answer = z.object({ embeddings: z.array(z.array(z.number().finite()).min(1)).min(1) });

export async function embedQuery(target: ApiTarget, text: string): Promise<Float32Array> {
  const key = await target.resolveKey('api');
  if (!key)
    throw new UserError(
      'A semantic search embeds the query through the API, and no API key is configured. Add one (`batchdesk keys add --kind api --label NAME`) or set BATCHDESK_API_KEY.',
      { code: 'meaning_api', why: 'no_key', status: null },
    );
  let res;
  try {
    res = await sendRequest(
      { baseUrl: sendTargetOf(target, key).baseUrl, key: key.secret },
      {
        method: 'POST',
        path: '/embeddings',
        idempotencyKey: newIdempotencyKey(),
        credential: 'api',
        body: { kind: 'json', text: JSON.stringify({ input: text, tier: 'standard' }) },
      },
      { idleTimeoutMs: 30_000, deadlineMs: 60_000 },
    );
  } catch (e) {
    throw new UserError(
      `Could not reach the API to embed the query (${e instanceof Error ? e.message : String(e)}). Check the connection and try again, or search without --semantic.`,
      { code: 'meaning_api', why: 'unreachable', status: null },
    );
  }
  if (res.status < 200 || res.status >= 300) {
    throw new UserError(
      `The API refused to embed the query (HTTP ${res.status}: ${storedBody(res, [key.secret]).slice(0, 300)}). Try again later, or search without --semantic.`,
      { code: 'meaning_api', why: 'refused', status: res.status },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    parsed = null;
  }
  const a = Answer.safeParse(parsed);
  const v = a.success ? a.data.embeddings[0] : undefined;
  if (!v)
    throw new UserError('The API answered the query embedding without an embedding ("embeddings": [[numbers]]). Search without --semantic meanwhile.', {
      code: 'meaning_api',
      why: 'no_embedding',
      status: null,
    });
  return Float32Array.from(v);
}
