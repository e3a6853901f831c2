// A job's state reaches the renderer twice, by its event and by the reply to the action that changed it
// (cancel, pause), in either order: the store keeps the newer one (a cancelled import must not come back
// as running because the cancel's reply arrived after the event that it ended).
import { describe, expect, it } from 'vitest';
import type { JobInfo, StudioApi } from '../../shared/api';
import { createStudioStore } from '../../renderer/store/store';

const job = (status: JobInfo['status'], updatedAt: string): JobInfo => ({
  id: 'import-1',
  kind: 'import',
  title: 'Import fx.jsonl',
  status,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt,
  done: 0,
  total: 0,
  unit: 'bytes',
  canPause: false,
  canResume: false,
  canCancel: status === 'running',
});

describe('upsertJob', () => {
  it('keeps the newer state when an older one arrives after it', () => {
    const store = createStudioStore({} as StudioApi);
    store.getState().upsertJob(job('running', '2026-12-01T10:00:01.000Z'));
    store.getState().upsertJob(job('cancelled', '2026-12-01T10:00:03.000Z'));
    store.getState().upsertJob(job('running', '2026-12-01T10:00:02.000Z')); // the cancel's late reply
    expect(store.getState().jobs).toEqual([job('cancelled', '2026-12-01T10:00:03.000Z')]);
    store.getState().upsertJob(job('cancelled', '2026-12-01T10:00:03.000Z'));
    expect(store.getState().jobs).toHaveLength(1);
  });
});
