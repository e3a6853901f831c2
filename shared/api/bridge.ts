// What the Electron preload exposes on `window.lotsBridge`: one function per channel, each returning the
// transport envelope (so error codes survive contextBridge), and one subscribe function per event.
import type { Envelope } from './errors';
import type { ApiEvents, Unsubscribe } from './contract';
import type { ApiMethodName } from './schemas';

export const BRIDGE_GLOBAL = 'lotsBridge';

export type BridgeMethods = { readonly [M in ApiMethodName]: (input?: unknown) => Promise<Envelope<unknown>> };

export interface BridgeEvents {
  readonly onJobUpdate: (listener: (payload: ApiEvents['jobUpdate']) => void) => Unsubscribe;
  readonly onProjectChanged: (listener: (payload: ApiEvents['projectChanged']) => void) => Unsubscribe;
  readonly onMenuCommand: (listener: (payload: ApiEvents['menuCommand']) => void) => Unsubscribe;
}

export type LotsBridge = BridgeMethods & BridgeEvents;
