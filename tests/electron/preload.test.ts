// The preload exposes one function per contract method and one subscribe function per event — never
// ipcRenderer itself — and each function talks on its own namespaced channel.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { API_EVENT_NAMES, API_METHOD_NAMES, eventChannel, methodChannel } from '../../shared/api/channels';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } }));
const listeners = new Map<string, (event: unknown, payload: unknown) => void>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (event: unknown, payload: unknown) => void) => listeners.set(channel, fn),
    removeListener: (channel: string) => listeners.delete(channel),
  },
}));

beforeAll(async () => {
  await import('../../electron/preload');
});

describe('preload', () => {
  it('exposes exactly the contract on window.lotsBridge, frozen', () => {
    expect(Object.keys(exposed)).toEqual(['lotsBridge']);
    const bridge = exposed.lotsBridge as Record<string, unknown>;
    const events = API_EVENT_NAMES.map((e) => `on${e[0]!.toUpperCase()}${e.slice(1)}`);
    expect(Object.keys(bridge).sort()).toEqual([...API_METHOD_NAMES, ...events].sort());
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
});
