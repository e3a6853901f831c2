// Issue 13 #11 (rest) and the host-crash part of #1: a scoring job whose process died while its state file
// said "running" was offered as "paused — resume" even on a fully scored project, and could not be
// cancelled. On open, such a job is now "interrupted" (resumable, or dismissed for good) — or "done" when
// every trace it had to score is stored.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore, type JobState } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { scoreKey } from '../../electron/engine/scoring/keys';
import { makeLineTraces, makeScoreRows } from '../e2e/fixtures';

let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-jobs-'));
  project = join(dir, 'p');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid!)));
}

const MODEL = '/models/m.gguf';
const RUN = 'abc123|line|answer|plain';

/** A project of 10 traces, `scored` of them scored by the run a killed job was writing, and its job file. */
async function killedJob(scored: number, recordedDone: number): Promise<{ store: ProjectStore; job: JobState }> {
  const store = ProjectStore.create(project);
  const traces = makeLineTraces({ task: 'fx', requests: 10, tools: 5, seed: 1 });
  store.addTraces(traces, 'gen.jsonl');
  store.appendScores(makeScoreRows(traces.slice(0, scored), RUN).map((r) => ({ ...r, key: scoreKey(RUN, store.getTraceHash(r.trace)!), model: MODEL, intervention: 'line', span: 'answer', format: 'plain' })));
  const now = new Date().toISOString();
  const job: JobState = {
    id: 'score-20261201-abc', kind: 'score', status: 'running', createdAt: now, updatedAt: now,
    options: { jobId: 'score-20261201-abc', project, model: MODEL, intervention: 'line', span: 'answer', gpu: 'cpu' },
    // State files are written at most once a second: the last one can be behind the stored scores.
    progress: { done: recordedDone, total: 10, message: 'scoring 10 traces' },
    pid: await deadPid(),
  };
  store.writeJob(job);
  return { store, job };
}

function service(): StudioService {
  return new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')), quietWorkers: true });
}

describe('jobs whose process died', () => {
  it('show as interrupted (not running, not paused), with the scores stored so far, resumable or dismissable', async () => {
    const { job } = await killedJob(4, 3);
    const s = service();
    await s.openProject({ dir: project });
    const [info] = await s.listJobs();
    expect(info).toMatchObject({ id: job.id, status: 'interrupted', done: 4, total: 10, canResume: true, canCancel: true, canPause: false });
    expect(info!.message).toMatch(new RegExp(`interrupted: the process running it \\(pid ${job.pid}\\) stopped .* with 4 of 10 traces scored; resume .* or dismiss it`));
    await expect(s.pauseJob({ id: job.id })).rejects.toThrow(/interrupted: resume it, or dismiss it/);

    const dismissed = await s.cancelJob({ id: job.id });
    expect(dismissed).toMatchObject({ status: 'cancelled', canResume: false, canCancel: false });
    expect(ProjectStore.open(project).readJob(job.id)).toMatchObject({ status: 'cancelled' });
    expect(ProjectStore.open(project).listScores()).toHaveLength(4); // its scores are kept
    const again = service();
    await again.openProject({ dir: project });
    expect(await again.listJobs()).toEqual([]);
    s.dispose();
    again.dispose();
  });

  it('whose work is complete are marked done on open and never offered for resumption', async () => {
    const { job } = await killedJob(10, 9);
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toEqual([]);
    const state = ProjectStore.open(project).readJob(job.id);
    expect(state).toMatchObject({ status: 'done', progress: { done: 10, total: 10 } });
    expect(state!.progress.message).toMatch(/all 10 traces are scored/);
    s.dispose();
  });

  it('scores of another model do not make a job look complete', async () => {
    const { store, job } = await killedJob(0, 0);
    const traces = store.listTraces();
    store.appendScores(makeScoreRows(traces, 'other|line|answer|plain').map((r) => ({ ...r, key: scoreKey('other|line|answer|plain', store.getTraceHash(r.trace)!), model: '/models/other.gguf', intervention: 'line', span: 'answer' })));
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: job.id, status: 'interrupted', done: 0 }]);
    s.dispose();
  });
});
