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
import type { JobInfo } from '../../shared/api';
import { runScoreJob } from '../../electron/engine/jobs/score-job';
import { JobControl } from '../../electron/engine/jobs/control';
import { copyTraces } from '../engine/copy-traces';
import { evidenceCopyModel } from '../engine/fixtures';

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
  store.appendScores(
    makeScoreRows(traces.slice(0, scored), RUN).map((r) => ({
      ...r,
      key: scoreKey(RUN, store.getTraceHash(r.trace)!),
      model: MODEL,
      intervention: 'line',
      span: 'answer',
      format: 'plain',
    })),
  );
  const now = new Date().toISOString();
  const job: JobState = {
    id: 'score-20261201-abc',
    kind: 'score',
    status: 'running',
    createdAt: now,
    updatedAt: now,
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
    expect(info!.message).toMatch(
      new RegExp(`interrupted: the process running it \\(pid ${job.pid}\\) stopped .* with 4 of 10 traces scored; resume .* or dismiss it`),
    );
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

  it('a remote job (rows named by the server identity, not the file) is marked done when every trace is scored', async () => {
    const store = ProjectStore.create(project);
    const traces = makeLineTraces({ task: 'fx', requests: 10, tools: 5, seed: 1 });
    store.addTraces(traces, 'gen.jsonl');
    const identity = 'llama-server:qwen@0123456789abcdef';
    const run = `${identity}|line|answer|plain`;
    const rows = (n: number) =>
      makeScoreRows(traces.slice(0, n), run).map((r) => ({
        ...r,
        key: scoreKey(run, store.getTraceHash(r.trace)!),
        model: identity,
        intervention: 'line' as const,
        span: 'answer' as const,
        format: 'plain',
      }));
    const now = new Date().toISOString();
    const job: JobState = {
      id: 'score-20261201-rem',
      kind: 'score',
      status: 'running',
      createdAt: now,
      updatedAt: now,
      options: {
        jobId: 'score-20261201-rem',
        project,
        model: MODEL,
        intervention: 'line',
        span: 'answer',
        gpu: 'cpu',
        remote: { backend: 'llama-server', endpoints: ['http://127.0.0.1:1'] },
      },
      progress: { done: 3, total: 10, message: 'scoring 10 traces' },
      pid: await deadPid(),
    };
    store.appendScores(rows(6));
    store.writeJob(job);
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: job.id, status: 'interrupted', done: 6, total: 10 }]);
    store.appendScores(rows(10).slice(6));
    const again = service();
    await again.openProject({ dir: project });
    expect(await again.listJobs()).toEqual([]);
    expect(ProjectStore.open(project).readJob(job.id)).toMatchObject({ status: 'done', progress: { done: 10, total: 10 } });
    s.dispose();
    again.dispose();
  });

  it('scores of another model do not make a job look complete', async () => {
    const { store, job } = await killedJob(0, 0);
    const traces = store.listTraces();
    store.appendScores(
      makeScoreRows(traces, 'other|line|answer|plain').map((r) => ({
        ...r,
        key: scoreKey('other|line|answer|plain', store.getTraceHash(r.trace)!),
        model: '/models/other.gguf',
        intervention: 'line',
        span: 'answer',
      })),
    );
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: job.id, status: 'interrupted', done: 0 }]);
    s.dispose();
  });
});

// Issue 13 (rest): faithfulness checks that were running when their process died were not listed at all.
// They now show as interrupted too (their own title and kind), resume runs the check again (a check stores
// its result only once complete) and dismiss records it; one whose results are all stored is marked done.
describe('faithfulness checks whose process died', () => {
  const CHECK_ID = 'faithfulness-20261201-abc';

  /** A project scored by RUN, and the state file of a check of task fx at K = 1, 2 that was killed. */
  async function killedCheck(
    options: { model?: string; run?: string; store?: ProjectStore; projectInFile?: string } = {},
  ): Promise<{ store: ProjectStore; job: JobState }> {
    let store = options.store;
    if (!store) {
      store = ProjectStore.create(project);
      const traces = makeLineTraces({ task: 'fx', requests: 6, tools: 5, seed: 1 });
      store.addTraces(traces, 'gen.jsonl');
      store.appendScores(
        makeScoreRows(traces, RUN).map((r) => ({
          ...r,
          key: scoreKey(RUN, store!.getTraceHash(r.trace)!),
          model: MODEL,
          intervention: 'line',
          span: 'answer',
          format: 'plain',
        })),
      );
    }
    const now = new Date(Date.now() - 60_000).toISOString();
    const job: JobState = {
      id: CHECK_ID,
      kind: 'faithfulness',
      status: 'running',
      createdAt: now,
      updatedAt: now,
      options: {
        jobId: CHECK_ID,
        project: options.projectInFile ?? project,
        model: options.model ?? MODEL,
        gpu: 'cpu',
        tasks: ['fx'],
        run: options.run ?? RUN,
        ks: [1, 2],
        draws: 2,
        seed: 1,
      },
      progress: { done: 3, total: 6, message: 'checking 6 requests' },
      pid: await deadPid(),
    };
    store.writeJob(job);
    return { store, job };
  }

  function storedCheck(store: ProjectStore, ks: number[], createdAt = new Date().toISOString()): void {
    store.writeFaithfulness('fx', {
      run: RUN,
      model: MODEL,
      intervention: 'line',
      span: 'answer',
      format: 'plain',
      seed: 1,
      baseDrift: 0,
      points: ks.map((k) => ({ k, tools: ['RateLookup'], n: 6, joint: 0.5, additive: 0.5, random: 0.1, draws: 2, beatsRandom: 1, rows: 6, createdAt })),
    });
  }

  it('show as interrupted faithfulness checks, with their title, and can be dismissed', async () => {
    const { job } = await killedCheck();
    const s = service();
    await s.openProject({ dir: project });
    const [info] = await s.listJobs();
    expect(info).toMatchObject({
      id: CHECK_ID,
      kind: 'faithfulness',
      task: 'fx',
      title: 'Faithfulness check of fx (K = 1, 2)',
      status: 'interrupted',
      done: 0,
      total: 6,
      unit: 'requests',
      canResume: true,
      canCancel: true,
      canPause: false,
    });
    expect(info!.message).toMatch(
      new RegExp(
        `interrupted: the process running it \\(pid ${job.pid}\\) stopped .* after checking 3 of 6 requests; .*resuming runs it again from the start; or dismiss it`,
      ),
    );
    await expect(s.pauseJob({ id: CHECK_ID })).rejects.toThrow(/interrupted: resume it, or dismiss it/);
    expect(await s.cancelJob({ id: CHECK_ID })).toMatchObject({ kind: 'faithfulness', status: 'cancelled', canResume: false });
    expect(ProjectStore.open(project).readJob(CHECK_ID)).toMatchObject({
      status: 'cancelled',
      progress: { message: expect.stringMatching(/nothing of it was stored/) },
    });
    const again = service();
    await again.openProject({ dir: project });
    expect(await again.listJobs()).toEqual([]);
    s.dispose();
    again.dispose();
  });

  it('whose results are stored for every K are marked done on open and never offered', async () => {
    const { store } = await killedCheck();
    storedCheck(store, [1, 2]);
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toEqual([]);
    const state = ProjectStore.open(project).readJob(CHECK_ID)!;
    expect(state).toMatchObject({ status: 'done', progress: { done: 6, total: 6 } });
    expect(state.progress.message).toMatch(/the check's results are stored for fx \(K = 1, 2\)/);
    s.dispose();
  });

  it('a result for only some K, or one older than the job, does not make it look complete', async () => {
    const { store } = await killedCheck();
    storedCheck(store, [1]);
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: CHECK_ID, status: 'interrupted' }]);
    storedCheck(store, [1, 2], new Date(Date.now() - 3_600_000).toISOString());
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: CHECK_ID, status: 'interrupted' }]);
    s.dispose();
  });

  it('resumed, runs the check again under its id to the end (real model, its own process)', async () => {
    const store = ProjectStore.create(project);
    store.addTraces(copyTraces(6, 5, 51, 'fx'), 'gen');
    await runScoreJob(
      { jobId: 'score-first', project, model: evidenceCopyModel(), intervention: 'line', span: 'answer', gpu: 'cpu' },
      new JobControl(),
      () => undefined,
    );
    const run = ProjectStore.open(project).listRuns()[0]!;
    // Its state file names the folder the project was copied from: it resumes in the one opened.
    await killedCheck({ store: ProjectStore.open(project), model: evidenceCopyModel(), run, projectInFile: join(dir, 'copied-from') });
    const s = service();
    await s.openProject({ dir: project });
    expect(await s.listJobs()).toMatchObject([{ id: CHECK_ID, kind: 'faithfulness', status: 'interrupted' }]);
    const finished = new Promise<JobInfo>((resolve) => {
      const off = s.events.on('jobUpdate', (job) => {
        if (job.id === CHECK_ID && (job.status === 'done' || job.status === 'failed' || job.status === 'cancelled')) {
          off();
          resolve(job);
        }
      });
    });
    expect(await s.resumeJob({ id: CHECK_ID })).toMatchObject({ id: CHECK_ID, kind: 'faithfulness', title: 'Faithfulness check of fx (K = 1, 2)' });
    const done = await finished;
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'done', done: 6, total: 6 });
    expect(ProjectStore.open(project).readJob(CHECK_ID)).toMatchObject({ status: 'done' });
    expect((await s.getRanking({ task: 'fx' })).faithfulness.map((p) => p.k)).toEqual([1, 2]);
    // Opened again, it is neither interrupted nor offered.
    await s.openProject({ dir: project });
    expect((await s.listJobs()).filter((j) => j.status === 'interrupted')).toEqual([]);
    s.dispose();
  });
});
