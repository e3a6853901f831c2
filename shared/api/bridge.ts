// What the Electron preload exposes on `window.lotsBridge`: one function per channel, each returning the
// transport envelope (so error codes survive contextBridge), one subscribe function per event, and the
// path of a dropped or picked file (so the engine streams it from disk instead of the page reading it).
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

/** A browser `File` as far as the bridge needs one (shared/ is checked without the DOM's types). */
export interface BridgeFile {
  readonly name: string;
}

export interface BridgeFiles {
  /** The file's path on disk (Electron's webUtils.getPathForFile); '' for a file that has none. A method, so
   * the preload may take the DOM's `File` where this says `BridgeFile`. */
  pathForFile(file: BridgeFile): string;
}

export type LotsBridge = BridgeMethods & BridgeEvents & BridgeFiles;
