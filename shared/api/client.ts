// Builds a StudioApi from a transport: a `call` that returns envelopes and a `subscribe` for events.
// The Electron bridge, the web host client and the tests' in-memory transport all go through this.
import { API_METHOD_NAMES } from './channels';
import type { ApiEventName, ApiEvents, StudioApi, Unsubscribe } from './contract';
import { rebuildError, type Envelope } from './errors';

export interface Transport {
  call(method: string, input: unknown): Promise<Envelope<unknown>>;
  subscribe<E extends ApiEventName>(event: E, listener: (payload: ApiEvents[E]) => void): Unsubscribe;
}

export function createApiClient(transport: Transport): StudioApi {
  const api: Record<string, unknown> = {};
  for (const method of API_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      const envelope = await transport.call(method, input);
      if (!envelope.ok) throw rebuildError(envelope.error);
      return envelope.value;
    };
  }
  api.onJobUpdate = (l: (p: ApiEvents['jobUpdate']) => void) => transport.subscribe('jobUpdate', l);
  api.onProjectChanged = (l: (p: ApiEvents['projectChanged']) => void) => transport.subscribe('projectChanged', l);
  api.onMenuCommand = (l: (p: ApiEvents['menuCommand']) => void) => transport.subscribe('menuCommand', l);
  return api as unknown as StudioApi;
}
