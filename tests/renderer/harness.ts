// A renderer store wired to the real engine service through an in-memory transport (JSON round trip,
// like the web host): tests drive the model, not the DOM, and every test gets a fresh store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type Envelope, type StudioApi } from '../../shared/api';
import { isReadMethod } from '../../shared/api/access';
import { dispatch, StudioService } from '../../electron/engine/api';
import { ProjectStore } from '../../electron/engine/store';
import { createStudioStore, type StudioStore } from '../../renderer/store/store';
import { makeLineTraces, makeScoreRows } from '../e2e/fixtures';

export interface InMemoryOptions {
  /** Answer as the web host answers its view-only link (electron/host/host.ts): the write methods are
   * refused as the page's web transport reports a 403 (FORBIDDEN), and getAppInfo says `viewOnly`. */
  viewOnly?: boolean;
}

export function inMemoryApi(service: StudioService, options: InMemoryOptions = {}): StudioApi {
  return createApiClient({
    call: async (method, input) => {
      if (options.viewOnly === true && !isReadMethod(method)) {
        const message = `refused: ${method} is not open to the view-only link (it reads the open project and nothing else); use the full link that \`lots ui\` printed`;
        return { ok: false, error: { name: 'Forbidden', code: 'FORBIDDEN', message } };
      }
      const envelope = JSON.parse(JSON.stringify(await dispatch(service, method, JSON.parse(JSON.stringify(input ?? null))))) as Envelope<unknown>;
      if (options.viewOnly === true && method === 'getAppInfo' && envelope.ok) envelope.value = { ...(envelope.value as object), viewOnly: true };
      return envelope;
    },
    subscribe: (event, listener) => service.events.on(event, listener),
  });
}

/** `api` with a count of every method called (events left out): what a page asked the engine for. */
export function countingCalls(api: StudioApi): { api: StudioApi; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = new Proxy(api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof key !== 'string' || typeof value !== 'function' || key.startsWith('on')) return value;
      return (...args: unknown[]) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { api: counted, calls };
}

export interface Harness {
  service: StudioService;
  api: StudioApi;
  store: StudioStore;
  dir: string;
}

/** A project with one scored task (fx_settle: 40 requests, 10 tools) opened in a fresh store. */
export async function scoredHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'lots-renderer-'));
  const project = ProjectStore.create(dir, 'renderer-test');
  const traces = makeLineTraces({ task: 'fx_settle', requests: 40, tools: 10, exposed: 7 });
  project.addTraces(traces, 'gen.jsonl');
  project.appendScores(makeScoreRows(traces));
  const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
  service.setProject(ProjectStore.open(dir));
  const api = inMemoryApi(service);
  const store = createStudioStore(api);
  await store.getState().boot();
  return { service, api, store, dir };
}
