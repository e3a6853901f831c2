// The preload: exposes the API contract to the page as one function per IPC channel and one subscribe
// function per event, and the disk path of a dropped file (so an import sends a path over IPC, not the
// file's contents). ipcRenderer itself is never handed to the page. Runs sandboxed (bundled as CJS).
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { API_METHOD_NAMES, eventChannel, methodChannel } from '../shared/api/channels';
import { BRIDGE_GLOBAL, type BridgeMethods, type LotsBridge } from '../shared/api/bridge';
import type { Envelope } from '../shared/api/errors';

function subscribe<T>(event: string) {
  return (listener: (payload: T) => void) => {
    const handler = (_e: IpcRendererEvent, payload: T) => listener(payload);
    ipcRenderer.on(eventChannel(event), handler);
    return () => {
      ipcRenderer.removeListener(eventChannel(event), handler);
    };
  };
}

const methods: Record<string, (input?: unknown) => Promise<Envelope<unknown>>> = {};
for (const method of API_METHOD_NAMES) {
  const channel = methodChannel(method);
  methods[method] = (input?: unknown) => ipcRenderer.invoke(channel, input) as Promise<Envelope<unknown>>;
}

const bridge: LotsBridge = {
  ...(methods as unknown as BridgeMethods),
  onJobUpdate: subscribe('jobUpdate'),
  onProjectChanged: subscribe('projectChanged'),
  onMenuCommand: subscribe('menuCommand'),
  pathForFile: (file: File) => webUtils.getPathForFile(file),
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, Object.freeze(bridge));
