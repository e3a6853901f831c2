// `lots demo` as a job through the JobCenter, as the Demo view's "Run the demo" starts it, with the
// random-weight fixture model (its answers mean nothing; the mechanics are what is checked): one job
// worker runs runDemo to the end, its steps reported in order with their counts; cancelled mid-way it
// ends as cancelled, and Resume continues in the same folder reusing what was served and scored; a demo
// whose Studio went away is listed as interrupted by the next one, and resumes from there. (Each case
// starts job workers and loads the model: on a busy 2-core machine, minutes.)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/api/types';
import type { DemoStageEvent } from '../../../electron/engine/benchmark/demo';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { JobCenter } from '../../../electron/engine/jobs/center';
import { DemoSteps } from '../../../electron/engine/jobs/demo-steps';
import type { DemoJobSpec } from '../../../electron/engine/jobs/protocol';
import { alive } from '../../../electron/engine/jobs/queue';
import { ProjectStore } from '../../../electron/engine/store';

const model = ensureFixtureModel(resolve('tests/.fixtures/models'), { kind: 'random' });
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'lots-demo-job-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The smallest demo worth running: tiny splits, short answers, one thread. */
function spec(out: string, more: Partial<DemoJobSpec> = {}): Omit<DemoJobSpec, 'jobId'> {
  return {
    out,
    modelPath: model,
    preset: 'quick',
    families: ['compute_only'],
    fit: 1,
    eval: 1,
    draws: 1,
    kMax: 2,
    maxTokens: 3,
    threads: 1,
    gpu: 'cpu',
    command: 'lots demo (test)',
    ...more,
  };
}

function until(updates: JobInfo[], id: string, done: (job: JobInfo) => boolean, timeoutMs = 480_000): Promise<JobInfo> {
  const started = Date.now();
  return new Promise((resolveJob, reject) => {
    const timer = setInterval(() => {
      const last = updates.filter((u) => u.id === id).at(-1);
      if (last && done(last)) {
        clearInterval(timer);
        resolveJob(last);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`job ${id} did not get there in time; last: ${JSON.stringify(last)}`));
      }
    }, 20);
  });
}

const ended = (j: JobInfo) => j.status !== 'running';
const stepOf = (j: JobInfo, id: string) => j.steps?.find((s) => s.id === id);
/** Step ids in the order they were first seen running or done. */
function stepOrder(updates: readonly JobInfo[]): string[] {
  const seen: string[] = [];
  for (const u of updates) for (const s of u.steps ?? []) if (s.status !== 'waiting' && !seen.includes(s.id)) seen.push(s.id);
  return seen;
}

describe('the demo as a job', () => {
  it('runs runDemo in the job worker to the end: every step in order with its counts, demo.json and the sweeps stored', async () => {
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const out = join(work, 'whole');
    const started = center.startDemo(spec(out, { families: ['compute_only', 'no_tool'] }));
    expect(started).toMatchObject({ kind: 'demo', status: 'running', unit: 'steps', canCancel: true, canPause: false, canResume: false, result: { dir: out } });
    const last = await until(updates, started.id, ended);
    expect(last, JSON.stringify(last.error)).toMatchObject({ status: 'done', canCancel: false, canResume: false });
    expect(last.message).toMatch(/^done in .*: LOTS \d+% against keep-all \d+% on the evaluation requests; the project is in /);
    const mine = updates.filter((u) => u.id === started.id);
    expect(stepOrder(mine)).toEqual(['load', 'make', 'serve', 'score', 'sweep', 'evaluate']);
    expect(last.steps!.every((s) => s.status === 'done')).toBe(true);
    expect(last.done).toBe(last.total);
    expect(stepOf(last, 'serve')).toMatchObject({ done: 2, total: 2, unit: 'requests' });
    expect(stepOf(last, 'score')).toMatchObject({ done: 2, total: 2, unit: 'traces', detail: '2 new, 0 stored before' });
    expect(stepOf(last, 'sweep')).toMatchObject({ done: 2, total: 2, unit: 'families' });
    // While it ran, a family's budgets were counted, and the running step was the status line.
    expect(mine.some((u) => /^compute_only: K \d\/2/.test(stepOf(u, 'sweep')?.detail ?? ''))).toBe(true);
    expect(mine.some((u) => u.status === 'running' && u.message?.startsWith('Score them'))).toBe(true);
    expect(last.log!.some((l) => l.startsWith('5/5 evaluated'))).toBe(true);
    const store = ProjectStore.open(out);
    expect(store.readDemo()).toMatchObject({ command: 'lots demo (test)', preset: { name: 'quick', fit: 1, eval: 1, families: ['compute_only', 'no_tool'] } });
    expect(
      store
        .listSweeps()
        .map((s) => s.task)
        .sort(),
    ).toEqual(['compute_only', 'no_tool']);
    expect(() => center.pause(started.id)).toThrow(/cancelled and resumed .* not paused/);
    expect(() => center.resume(started.id)).toThrow(/is done/);
  }, 600_000);

  it('cancelled mid-way it ends as cancelled; Resume continues the same folder without serving or scoring again; one demo at a time', async () => {
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const out = join(work, 'cancel');
    // Two families and every budget up to 6: the sweeps outlast the cancel.
    const started = center.startDemo(spec(out, { families: ['compute_only', 'table_total'], kMax: 6, eval: 2 }));
    // One demo at a time: a second start says which one runs.
    expect(() => center.startDemo(spec(join(work, 'other')))).toThrow(
      /^a demo is already running in .*cancel \(demo-[^)]+\): cancel it or wait for it to end before starting another$/,
    );
    await until(updates, started.id, (j) => stepOf(j, 'score')?.status === 'done' || ended(j));
    const cancelling = center.cancel(started.id);
    expect(cancelling).toMatchObject({ status: 'running', canCancel: false });
    const cancelled = await until(updates, started.id, ended);
    expect(cancelled, JSON.stringify(cancelled.error)).toMatchObject({ status: 'cancelled', canResume: true, canCancel: false });
    expect(cancelled.message).toContain('resume to continue where it stopped');
    expect(stepOf(cancelled, 'evaluate')?.status).not.toBe('done');
    const store = ProjectStore.open(out);
    // demo.json is there from the start, unfinished, with the seconds of this sitting.
    const stopped = store.readDemo()!;
    expect(stopped).toMatchObject({ command: 'lots demo (test)' });
    expect(stopped.finishedAt).toBeUndefined();
    expect(stopped.seconds).toBeGreaterThan(0);
    const served = store.listTraces().filter((t) => t.meta?.served).length;
    const scores = store.listScores().length;
    expect(served).toBe(2);
    expect(scores).toBe(2);

    const resumed = center.resume(started.id);
    expect(resumed).toMatchObject({ id: started.id, status: 'running', createdAt: started.createdAt, canResume: false });
    const done = await until(updates, started.id, (j) => j.status !== 'running' && j.updatedAt > resumed.updatedAt);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'done' });
    expect(done.log).toContain(`resuming the demo in ${out} (what is stored is reused)`);
    expect(stepOf(done, 'make')?.detail).toMatch(/made before: resumed/);
    expect(stepOf(done, 'score')?.detail).toBe('0 new, 2 stored before');
    const after = ProjectStore.open(out);
    expect(after.listTraces().filter((t) => t.meta?.served).length).toBe(served);
    expect(after.listScores().length).toBe(scores);
    expect(
      after
        .listSweeps()
        .map((s) => s.task)
        .sort(),
    ).toEqual(['compute_only', 'table_total']);
    // The resumed run keeps the first sitting's start and adds its seconds to them.
    const finished = after.readDemo()!;
    expect(finished.startedAt).toBe(stopped.startedAt);
    expect(finished.finishedAt).toEqual(expect.any(String));
    expect(finished.seconds).toBeGreaterThan(stopped.seconds!);
  }, 600_000);

  it('a demo whose Studio went away is interrupted in the next one: Resume continues it', async () => {
    const stateDir = join(work, 'demo-jobs');
    const out = join(work, 'restart');
    const updates: JobInfo[] = [];
    const before = new JobCenter((job) => updates.push(job), { quiet: true, demoStateDir: stateDir });
    const started = before.startDemo(spec(out));
    await until(updates, started.id, (j) => stepOf(j, 'serve')?.status === 'done' || ended(j));
    before.dispose(); // the app quits: its worker is stopped, its state file still says running
    const state = JSON.parse(readFileSync(join(stateDir, `${started.id}.json`), 'utf8')) as { status: string; pid: number };
    expect(state.status).toBe('running');
    for (let i = 0; i < 200 && alive(state.pid); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(state.pid)).toBe(false);

    const later: JobInfo[] = [];
    const after = new JobCenter((job) => later.push(job), { quiet: true, demoStateDir: stateDir });
    const listed = after.list().find((j) => j.id === started.id);
    expect(listed).toMatchObject({ kind: 'demo', status: 'interrupted', canResume: true, canCancel: true, result: { dir: out } });
    expect(listed!.message).toMatch(/^interrupted: the process running it \(pid \d+\) stopped .*resume to continue in .* where it stopped, or dismiss it$/);
    after.resume(started.id);
    const done = await until(later, started.id, ended);
    expect(done, JSON.stringify(done.error)).toMatchObject({ status: 'done' });
    expect(done.log).toContain(`resuming the demo in ${out} (what is stored is reused)`);
    expect(ProjectStore.open(out).readDemo()).toBeDefined();
    // Finished: the next Studio does not offer it again.
    expect(new JobCenter(() => undefined, { quiet: true, demoStateDir: stateDir }).list()).toEqual([]);
  }, 600_000);

  it('an interrupted demo dismissed stays dismissed, its folder untouched', () => {
    const stateDir = join(work, 'dismiss-jobs');
    const dir = join(work, 'dismissed');
    const id = 'demo-20260101000000-abcdef';
    // A state file as a killed Studio leaves it (its process long gone).
    const state = {
      id,
      kind: 'demo',
      status: 'running',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:01:00.000Z',
      options: { ...spec(dir), jobId: id },
      progress: { done: 3, total: 6, message: 'Score them (re-execute intervention) 1/2 traces' },
      pid: 2 ** 22 + 17,
    };
    writeState(stateDir, state);
    const center = new JobCenter(() => undefined, { quiet: true, demoStateDir: stateDir });
    expect(center.list()[0]).toMatchObject({ id, status: 'interrupted', done: 3, total: 6 });
    expect(center.list()[0]!.message).toContain('during "Score them (re-execute intervention) 1/2 traces"');
    expect(center.cancel(id)).toMatchObject({ status: 'cancelled', canResume: false, canCancel: false });
    expect(() => center.resume(id)).toThrow(/was dismissed/);
    expect(new JobCenter(() => undefined, { quiet: true, demoStateDir: stateDir }).list()).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('the demo steps', () => {
  const at = { registry: 15, project: 0, projects: 1 };
  const fold = (events: Omit<DemoStageEvent, 'registry' | 'project' | 'projects'>[], registries = [15]) => {
    const steps = new DemoSteps(registries);
    for (const e of events) steps.apply({ ...at, ...e });
    return steps;
  };

  it('sweep and evaluate take turns family by family: the one not running waits with the families it finished', () => {
    const steps = fold([
      { stage: 'load', done: 1, total: 1 },
      { stage: 'make', done: 1, total: 1 },
      { stage: 'serve', done: 4, total: 4 },
      { stage: 'score', done: 4, total: 4 },
      { stage: 'sweep', done: 0, total: 2, task: 'a', inner: { done: 2, total: 6 } },
      { stage: 'sweep', done: 1, total: 2, task: 'a' },
      { stage: 'evaluate', done: 0, total: 2, task: 'a', inner: { done: 3, total: 10, cached: true } },
    ]);
    const list = steps.list();
    expect(list.map((s) => [s.id, s.status, s.done, s.total])).toEqual([
      ['load', 'done', 1, 1],
      ['make', 'done', 1, 1],
      ['serve', 'done', 4, 4],
      ['score', 'done', 4, 4],
      ['sweep', 'waiting', 1, 2],
      ['evaluate', 'running', 0, 2],
    ]);
    expect(list.find((s) => s.id === 'evaluate')!.detail).toBe('a: 3/10 measurements (reused)');
    expect(steps.message).toBe('Evaluate LOTS against keep-all, no tools, Random and BM25 0/2 families · a: 3/10 measurements (reused)');
    expect([steps.done, steps.total]).toEqual([4, 6]);
  });

  it('with several registry sizes the project steps start again for each, and growth counts the sizes', () => {
    const steps = new DemoSteps([15, 30]);
    steps.apply({ stage: 'score', done: 2, total: 2, registry: 15, project: 0, projects: 2 });
    steps.apply({ stage: 'project', done: 1, total: 2, registry: 15, project: 0, projects: 2 });
    steps.apply({ stage: 'serve', done: 1, total: 2, registry: 30, project: 1, projects: 2 });
    const list = steps.list();
    expect(list.find((s) => s.id === 'growth')).toMatchObject({ status: 'running', done: 1, total: 2, label: 'Registry growth: 15 → 30 tools' });
    expect(list.find((s) => s.id === 'serve')).toMatchObject({
      status: 'running',
      done: 1,
      total: 2,
      label: 'Serve the fitting requests under the whole registry (registry of 30)',
    });
    expect(list.find((s) => s.id === 'score')).toMatchObject({ status: 'waiting', done: 0 });
    expect(list.find((s) => s.id === 'load')!.status).toBe('done');
  });
});

function writeState(dir: string, state: { id: string }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${state.id}.json`), JSON.stringify(state));
}
