// The faithfulness check through the service, as the Ranking view's "Run check" button starts it: a job
// in the scoring queue (its own process, real llama.cpp), whose result getRanking then carries.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/api';
import { StudioService } from '../../../electron/engine/api';
import { ProjectStore } from '../../../electron/engine/store';
import { JobControl } from '../../../electron/engine/jobs/control';
import { runScoreJob } from '../../../electron/engine/jobs/score-job';
import { copyTraces } from '../copy-traces';
import { evidenceCopyModel } from '../fixtures';
import { makeLineTraces, makeScoreRows } from '../../e2e/fixtures';

const dirs: string[] = [];
const services: StudioService[] = [];
afterAll(() => {
  for (const s of services) s.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

function service(): StudioService {
  const s = new StudioService({ transport: 'web', configDir: tmp('lots-cfg-'), quietWorkers: true });
  services.push(s);
  return s;
}

async function score(dir: string): Promise<void> {
  await runScoreJob(
    { jobId: `score-${Math.random().toString(36).slice(2)}`, project: dir, model: evidenceCopyModel(), intervention: 'line', span: 'answer', gpu: 'cpu' },
    new JobControl(),
    () => undefined,
  );
}

function finished(s: StudioService, id: string): Promise<JobInfo> {
  return new Promise((resolve) => {
    const off = s.events.on('jobUpdate', (job) => {
      if (job.id === id && (job.status === 'done' || job.status === 'failed' || job.status === 'cancelled')) {
        off();
        resolve(job);
      }
    });
  });
}

describe('faithfulness check through the service', () => {
  it("runs as a job for the ranking's run and K; getRanking then shows it, stale once more requests are scored", async () => {
    const dir = tmp('lots-faith-svc-');
    ProjectStore.create(dir).addTraces(copyTraces(6, 5, 51), 'gen');
    await score(dir);
    const s = service();
    await s.openProject({ dir });
    const before = await s.getRanking({ task: 'copy', k: 1 });
    expect(before.faithfulness).toEqual([]);
    expect(before.checkModel).toBe(evidenceCopyModel());
    expect(before.rows[0]!.tool).toBe('TableQuery');

    const job = await s.startFaithfulness({ task: 'copy', ks: [1], draws: 2, gpu: 'cpu' });
    expect(job).toMatchObject({ kind: 'faithfulness', task: 'copy', unit: 'requests' });
    const done = await finished(s, job.id);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'done', done: 6, total: 6 });

    const after = await s.getRanking({ task: 'copy', k: 1 });
    expect(after.faithfulness).toHaveLength(1);
    const p = after.faithfulness[0]!;
    expect(p).toMatchObject({ k: 1, n: 6, draws: 2, tools: ['TableQuery'], stale: false });
    expect(p.drop).toBeGreaterThan(p.random);
    expect(p.drop).toBeCloseTo(p.additive, 3);

    ProjectStore.open(dir).addTraces(
      copyTraces(1, 5, 52).map((t) => ({ ...t, id: `${t.id}-later` })),
      'later',
    );
    await score(dir);
    const later = await s.getRanking({ task: 'copy', k: 1 });
    expect(later.faithfulness[0]!.stale).toBe(true);
  });

  it('refuses imported scores: there is no model to recompute their likelihoods with', async () => {
    const dir = tmp('lots-faith-svc-');
    const store = ProjectStore.create(dir);
    const traces = makeLineTraces({ task: 'fx_settle', requests: 4, tools: 5, exposed: 4 });
    store.addTraces(traces, 'gen');
    store.appendScores(makeScoreRows(traces));
    const s = service();
    await s.openProject({ dir });
    expect((await s.getRanking({ task: 'fx_settle' })).checkModel).toBeNull();
    await expect(s.startFaithfulness({ task: 'fx_settle', ks: [1] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
