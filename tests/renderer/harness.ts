// A renderer store wired to the real engine service through an in-memory transport (JSON round trip,
// like the web host): tests drive the model, not the DOM, and every test gets a fresh store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type StudioApi } from '../../shared/api';
import { dispatch, StudioService } from '../../electron/engine/api';
import { ProjectStore } from '../../electron/engine/store';
import { createStudioStore, type StudioStore } from '../../renderer/store/store';
import { makeLineTraces, makeScoreRows } from '../e2e/fixtures';

export function inMemoryApi(service: StudioService): StudioApi {
  return createApiClient({
    call: async (method, input) => JSON.parse(JSON.stringify(await dispatch(service, method, JSON.parse(JSON.stringify(input ?? null))))),
    subscribe: (event, listener) => service.events.on(event, listener),
  });
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
