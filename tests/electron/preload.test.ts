// The preload exposes one function per contract method, one subscribe function per event and the path of
// a dropped file — never ipcRenderer itself — and each function talks on its own namespaced channel.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { API_EVENT_NAMES, API_METHOD_NAMES, eventChannel, methodChannel } from '../../shared/api/channels';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } }));
const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
const getPathForFile = vi.fn((file: { name: string }) => `/dropped/${file.name}`);

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, fn),
    removeListener: (channel: string) => listeners.delete(channel),
  },
  webUtils: { getPathForFile },
}));

beforeAll(async () => {
  await import('../../electron/preload');
});

describe('preload', () => {
  it('exposes exactly the contract on window.lotsBridge, frozen', () => {
    expect(Object.keys(exposed)).toEqual(['lotsBridge']);
    const bridge = exposed.lotsBridge as Record<string, unknown>;
    const events = API_EVENT_NAMES.map((e) => `on${e[0]!.toUpperCase()}${e.slice(1)}`);
    expect(Object.keys(bridge).sort()).toEqual([...API_METHOD_NAMES, ...events, 'pathForFile'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.values(bridge).every((v) => typeof v === 'function')).toBe(true);
    expect(JSON.stringify(Object.keys(bridge))).not.toMatch(/ipc|send|invoke/i);
  });

  it('sends each method on its own channel', async () => {
    const bridge = exposed.lotsBridge as Record<string, (input?: unknown) => Promise<unknown>>;
    await expect(bridge.openProject!({ dir: '/x' })).resolves.toEqual({ ok: true, value: { channel: methodChannel('openProject'), input: { dir: '/x' } } });
    expect(invoke).toHaveBeenCalledWith('lots:call:openProject', { dir: '/x' });
  });

  it('subscribes to events and unsubscribes', () => {
    const bridge = exposed.lotsBridge as Record<string, (l: (p: unknown) => void) => () => void>;
    const got: unknown[] = [];
    const off = bridge.onJobUpdate!((p) => got.push(p));
    listeners.get(eventChannel('jobUpdate'))!({ sender: 'ipc' }, { id: 'j1' });
    expect(got).toEqual([{ id: 'j1' }]); // the IPC event object is not passed to the page
    off();
    expect(listeners.has(eventChannel('jobUpdate'))).toBe(false);
  });

  it("gives a dropped file's path through webUtils, so an import sends the path, not the contents", async () => {
    const bridge = exposed.lotsBridge as { pathForFile: (f: unknown) => string; importTraces: (i: unknown) => Promise<unknown> };
    const file = { name: 'big.jsonl' };
    expect(bridge.pathForFile(file)).toBe('/dropped/big.jsonl');
    expect(getPathForFile).toHaveBeenCalledWith(file);
    // The renderer's drop handler builds the import from those paths (renderer/api/files.ts).
    const { importInput } = await import('../../renderer/api/files');
    const input = await importInput([file as unknown as File], bridge);
    expect(input).toEqual({ paths: ['/dropped/big.jsonl'] });
    await bridge.importTraces(input);
    expect(invoke).toHaveBeenLastCalledWith(methodChannel('importTraces'), { paths: ['/dropped/big.jsonl'] });
  });

  it('falls back to the contents where a file has no path (a browser; a file made in the page)', async () => {
    const { importInput } = await import('../../renderer/api/files');
    const file = new File(['{"v":1}\n'], 'in.jsonl');
    expect(await importInput([file], undefined)).toEqual({ files: [{ name: 'in.jsonl', text: '{"v":1}\n' }] });
    expect(await importInput([file], { pathForFile: () => '' })).toEqual({ files: [{ name: 'in.jsonl', text: '{"v":1}\n' }] });
  });
});
