// A budget sweep through the JobCenter, as the Budget view's "Run sweep" starts it: one job worker runs
// it to the end (the curve is stored, the job says the best K); a cancelled sweep ends as cancelled,
// keeping the budgets measured so far; a sweep that cannot run fails with a hint. The job runs the same
// per-task loop as `lots sweep` (benchmark/tasks.ts): a task left unscored fails with what to do. With its
// baselines it runs the comparison loop of `lots evaluate` (compareAtBudget) on the fitting requests: the
// stored sweep carries what only that loop writes (LOTS's row with its selection cost), no space is
// accepted, and `lots evaluate` afterwards measures none of those rows again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/api/types';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { scoreBenchTraces } from '../../../electron/engine/benchmark/score';
import { serveProject } from '../../../electron/engine/benchmark/serve-project';
import { BenchServer } from '../../../electron/engine/benchmark/server';
import { evaluateBenchTasks } from '../../../electron/engine/benchmark/tasks';
import { approvedSpace } from '../../../electron/engine/read-model/approved-space';
import { DEFAULT_BASELINES } from '../../../shared/selection/registry';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { JobCenter } from '../../../electron/engine/jobs/center';
import { JobControl } from '../../../electron/engine/jobs/control';
import { runSweepJob, type SweepJobEvent } from '../../../electron/engine/jobs/sweep-job';
import { ProjectStore } from '../../../electron/engine/store';
import { ended as jobEnded } from './ended';

const TASK = 'compute_only';
/** Served but not scored. */
const UNSCORED = 'table_total';
const model = ensureFixtureModel(resolve('tests/.fixtures/models'), { kind: 'random' });
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lots-sweep-job-'));
  const made = makeBenchProject(dir, { seed: 'sweep-job', families: [TASK, UNSCORED], fit: 2, eval: 2 });
  const server = await BenchServer.open(model, { gpu: 'cpu', parallel: 2, maxTokens: 6 });
  try {
    const served = await serveProject(made.store, server, { split: 'fit' });
    await scoreBenchTraces(
      made.store,
      server.model,
      server.renderer,
      served.traces.filter((t) => t.task === TASK),
      { modelHash: server.modelHash, modelName: server.modelName },
    );
  } finally {
    await server.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a budget sweep as a job', () => {
  it('runs in the job worker to the end: the curve is stored and the job says the best K', async () => {
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const started = center.startSweep({ project: dir, task: TASK, model, baselines: false });
    expect(started).toMatchObject({ kind: 'sweep', status: 'running', canCancel: true, canPause: false });
    const ended = await jobEnded(updates, started.id);
    expect(ended, JSON.stringify(ended.error)).toMatchObject({ status: 'done', canCancel: false, etaSeconds: 0 });
    expect(ended.message).toMatch(/^best K = .* over \d+ budgets$/);
    expect(ended.done).toBe(ended.total);
    expect(updates.some((u) => u.id === started.id && u.status === 'running' && u.total > 0)).toBe(true);
    expect(ProjectStore.open(dir).readSweep(TASK)?.points.length).toBeGreaterThan(0);
  });

  it('with baselines it runs the comparison loop of `lots evaluate` on the fitting requests, and accepts no space', async () => {
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const started = center.startSweep({ project: dir, task: TASK, model, baselines: true });
    const ended = await jobEnded(updates, started.id);
    expect(ended, JSON.stringify(ended.error)).toMatchObject({ status: 'done' });
    const store = ProjectStore.open(dir);
    const sweep = store.readSweep(TASK)!;
    // One progress bar: the budgets, then LOTS and each baseline on the fitting split.
    expect(ended.total).toBe(sweep.points.length + 1 + DEFAULT_BASELINES.length);
    expect(ended.done).toBe(ended.total);
    expect(sweep.baselines.map((b) => `${b.name}/${b.split}`).sort()).toEqual(['lots', ...DEFAULT_BASELINES].map((n) => `${n}/fit`).sort());
    // What only the shared loop writes: LOTS's row at bestK with its selection cost (scoring and serving).
    const lots = sweep.baselines.find((b) => b.name === 'lots')!;
    expect(lots).toMatchObject({ k: sweep.bestK, tools: sweep.points.find((p) => p.k === sweep.bestK)!.tools, selection: { per: 'fit', budget: sweep.bestK } });
    expect(lots.selection!.promptTokens).toBeGreaterThan(0);
    expect(sweep.baselines.every((b) => b.outcomes !== undefined)).toBe(true);
    expect(approvedSpace(store, TASK)).toBeNull();

    // `lots evaluate` (evaluateBenchTasks) reuses every fitting row the job stored and adds the evaluation split.
    const server = await BenchServer.open(model, { gpu: 'cpu', parallel: 2, maxTokens: 6 });
    try {
      await evaluateBenchTasks(store, server, { tasks: [TASK] });
    } finally {
      await server.close();
    }
    const evaluated = store.readSweep(TASK)!;
    const fitRows = (rows: typeof sweep.baselines) => rows.filter((b) => b.split === 'fit');
    expect(fitRows(evaluated.baselines)).toEqual(fitRows(sweep.baselines));
    expect(evaluated.baselines.filter((b) => b.split === 'eval').map((b) => b.name)).toEqual(['lots', ...DEFAULT_BASELINES]);
    expect(approvedSpace(store, TASK)?.tools).toEqual(lots.tools);
  });

  it('a sweep from another scoring run says, in the job and the activity log, which stored rows it dropped and measured again', async () => {
    const store = ProjectStore.open(dir);
    const before = store.readSweep(TASK)!;
    expect(before.baselines.some((b) => b.name === 'lots' && b.split === 'eval')).toBe(true);
    const run = store.listRuns()[0]!;
    store.appendScores(store.listScores(run).map((s) => ({ ...s, run: 'import:other', key: `import:other|${s.key}` })));
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const started = center.startSweep({ project: dir, task: TASK, model, baselines: true, run: 'import:other' });
    const ended = await jobEnded(updates, started.id);
    expect(ended, JSON.stringify(ended.error)).toMatchObject({ status: 'done' });
    // LOTS's rows were built from the old run's ranking: dropped (both splits), measured again on the fitting split here.
    expect(ended.message).toMatch(
      /^best K = .* over \d+ budgets; the stored rows of lots\b.* were measured against the previous ranking or K and are dropped \(measured again here on the fitting requests: lots\b.*\); lots evaluate.* measures them again$/,
    );
    const after = ProjectStore.open(dir);
    expect(
      after
        .readSweep(TASK)!
        .baselines.filter((b) => b.name === 'lots')
        .map((b) => b.split),
    ).toEqual(['fit']);
    const logged = after.listActivity().find((a) => a.kind === 'sweep')!;
    expect(logged.message).toContain('the stored rows of lots');
    expect(logged.data).toMatchObject({ task: TASK, run: 'import:other', dropped: expect.arrayContaining(['lots']) });
  });

  it('cancelled, it ends as cancelled (not failed) and says the measured budgets are kept', async () => {
    const control = new JobControl();
    control.cancel();
    const events: SweepJobEvent[] = [];
    await runSweepJob({ jobId: 'sweep-cancel', project: dir, task: TASK, model, baselines: false }, control, (e) => events.push(e));
    expect(events.at(-1)).toMatchObject({ type: 'finished', status: 'cancelled', progress: { message: 'cancelled: the budgets measured so far are kept' } });
  });

  it('a sweep of a task the project has no requests for fails with what to do', async () => {
    const updates: JobInfo[] = [];
    const center = new JobCenter((job) => updates.push(job), { quiet: true });
    const started = center.startSweep({ project: dir, task: 'no_such_task', model, baselines: false });
    const ended = await jobEnded(updates, started.id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND', hint: expect.stringContaining('scored') } });
  });

  it('a task with no scored tools in the run fails, saying which run and what to do, and stores no sweep', async () => {
    const events: SweepJobEvent[] = [];
    await runSweepJob({ jobId: 'sweep-unscored', project: dir, task: UNSCORED, model, baselines: false }, new JobControl(), (e) => events.push(e));
    const run = ProjectStore.open(dir).listRuns()[0]!;
    expect(events.at(-1)).toMatchObject({
      type: 'failed',
      error: { code: 'NOT_FOUND', message: `task "${UNSCORED}" has no scored tools in run ${run}; score its served fitting requests first` },
    });
    expect(ProjectStore.open(dir).readSweep(UNSCORED)).toBeUndefined();
  });
});
