// Which transport the page talks through: the Electron preload's bridge when present, else the web host.
import { BRIDGE_GLOBAL, createApiClient, type ApiTransport, type Envelope, type LotsBridge, type StudioApi } from '../../shared/api';
import { webTransport } from './web-transport';

export function bridgeTransport(bridge: LotsBridge): ApiTransport {
  return {
    call: (method, input) => {
      const fn = (bridge as unknown as Record<string, ((i: unknown) => Promise<Envelope<unknown>>) | undefined>)[method];
      return fn
        ? fn(input)
        : Promise.resolve({ ok: false, error: { name: 'Error', code: 'UNKNOWN_METHOD', message: `the desktop bridge has no method ${method}` } });
    },
    subscribe: (event, listener) => {
      const key = `on${event[0]!.toUpperCase()}${event.slice(1)}` as 'onJobUpdate' | 'onProjectChanged' | 'onMenuCommand';
      return (bridge[key] as (l: typeof listener) => () => void)(listener);
    },
  };
}

export function connectApi(): StudioApi {
  const bridge = (window as unknown as Record<string, LotsBridge | undefined>)[BRIDGE_GLOBAL];
  return createApiClient(bridge ? bridgeTransport(bridge) : webTransport());
}
