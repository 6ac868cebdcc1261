// The /v1 route table and its matcher.
import { channelRoute } from './channels';
import { crmCreateRoute, crmGetRoute, crmListRoute } from './crm';
import { embeddingsRoute } from './embeddings';
import { imageRoute } from './image';
import { ocrRoute } from './ocr';
import { textRoute } from './text';
import { transcribeRoute } from './transcribe';
import { ttsRoute } from './tts';
import type { Route } from './types';

export const ROUTES: readonly Route[] = [
  transcribeRoute,
  ocrRoute,
  ttsRoute,
  textRoute,
  imageRoute,
  embeddingsRoute,
  crmCreateRoute,
  crmListRoute,
  crmGetRoute,
  channelRoute,
];

export type RouteMatch = { kind: 'found'; route: Route; params: Record<string, string> } | { kind: 'wrong_method'; allow: string[] } | { kind: 'none' };

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a malformed escape stays as sent and simply matches nothing
  }
}

export function matchRoute(method: string, pathname: string): RouteMatch {
  const allow: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.method !== method) {
      allow.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    route.paramNames.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { kind: 'found', route, params };
  }
  return allow.length > 0 ? { kind: 'wrong_method', allow } : { kind: 'none' };
}
