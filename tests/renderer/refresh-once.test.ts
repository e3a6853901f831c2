// Issue 14 point 8: an import and a finished job refresh the project once — by the engine's
// projectChanged event — not once by the reply (or the job update) and again by the event.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobInfo } from '../../shared/api';
import { StudioService } from '../../electron/engine/api';
import { ProjectStore } from '../../electron/engine/store';
import { connectEvents, createStudioStore } from '../../renderer/store/store';
import { makeLineTraces, toJsonl } from '../e2e/fixtures';
import { countingCalls, inMemoryApi } from './harness';

async function openStore() {
  const dir = mkdtempSync(join(tmpdir(), 'lots-refresh-'));
  ProjectStore.create(dir, 'refresh');
  const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
  service.setProject(ProjectStore.open(dir));
  const { api, calls } = countingCalls(inMemoryApi(service));
  const store = createStudioStore(api);
  const off = connectEvents(api, store, () => {});
  await store.getState().boot();
  calls.clear();
  return { service, store, calls, off };
}

describe('refreshes after a change', () => {
  it('an import: the summary from the reply, one getProject and one invalidation from the event', async () => {
    const { store, calls, off } = await openStore();
    const file = join(mkdtempSync(join(tmpdir(), 'lots-in-')), 'in.jsonl');
    writeFileSync(file, toJsonl(makeLineTraces({ task: 't', requests: 3, tools: 4 })));
    const version = store.getState().dataVersion;
    const report = await store.getState().importTraces({ paths: [file] });
    expect(report?.files[0]?.added).toBe(3);
    await vi.waitFor(() => expect(calls.get('getProject')).toBe(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().project?.traces).toBe(3);
    expect(calls.get('getProject')).toBe(1);
    expect(store.getState().dataVersion).toBe(version + 1);
    off();
  });

  it('a finished job: one getProject and one invalidation, from the event', async () => {
    const { service, store, calls, off } = await openStore();
    const now = new Date().toISOString();
    const job: JobInfo = {
      id: 'score-1',
      kind: 'score',
      title: 'Score',
      status: 'running',
      createdAt: now,
      updatedAt: now,
      done: 0,
      total: 2,
      unit: 'traces',
      canPause: true,
      canResume: false,
      canCancel: true,
    };
    service.events.emit('jobUpdate', job);
    const version = store.getState().dataVersion;
    // What the service sends when a job ends (StudioService.jobUpdated): the update, then the change.
    service.events.emit('jobUpdate', { ...job, status: 'done', done: 2, canPause: false, canCancel: false });
    service.events.emit('projectChanged', { reason: 'scores' });
    await vi.waitFor(() => expect(calls.get('getProject')).toBe(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.get('getProject')).toBe(1);
    expect(store.getState().dataVersion).toBe(version + 1);
    expect(store.getState().notices.some((n) => n.title === 'Score finished')).toBe(true);
    off();
  });
});
