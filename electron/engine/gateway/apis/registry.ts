// The APIs the gateway serves, by path. A new API is one adapter file (api.ts says what it provides) and
// one line here.
import type { GatewayApi } from './api';
import { chatApi } from './chat';
import { messagesApi } from './messages';
import { responsesApi } from './responses';

export const API_ADAPTERS: readonly GatewayApi[] = [chatApi, responsesApi, messagesApi];

/** The adapter serving a path (segments as requested; a leading `v1` is optional), if any. */
export function adapterFor(segments: readonly string[]): GatewayApi | undefined {
  const s = segments.map((x) => x.toLowerCase());
  const rest = s[0] === 'v1' ? s.slice(1) : s;
  return API_ADAPTERS.find((a) => a.route.length === rest.length && a.route.every((x, i) => x === rest[i]));
}
