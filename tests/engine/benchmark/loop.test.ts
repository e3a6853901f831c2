// The serve → score → sweep → evaluate loop through real llama.cpp with the random-weight fixture (its
// answers mean nothing; the mechanics are what is checked): deterministic serving, stored sweeps that
// survive a restart and are not recomputed, cancellation, baselines, continual updates.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryNames } from '../../../shared/benchmark/registry';
import { reexecuteWithout } from '../../../shared/benchmark/trace';
import { validateTrace } from '../../../shared/trace/validate';
import { SweepResultSchema, type SweepResult } from '../../../shared/project/sweeps';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { benchRequests, chooseRun, taskRanking } from '../../../electron/engine/benchmark/project';
import { scoreBenchTraces } from '../../../electron/engine/benchmark/score';
import { serveProject } from '../../../electron/engine/benchmark/serve-project';
import { BenchServer } from '../../../electron/engine/benchmark/server';
import { compareAtBudget, evaluateTask, sweepTask } from '../../../electron/engine/benchmark/evaluate';
import { runBenchContinual } from '../../../electron/engine/benchmark/continual';
import { ProjectStore } from '../../../electron/engine/store';

const model = () => ensureFixtureModel(join(process.cwd(), 'tests/.fixtures/models'), { kind: 'random' });

describe('benchmark loop with a real model', () => {
  let dir: string;
  let project: string;
  let server: BenchServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lots-bench-loop-'));
    project = join(dir, 'p');
    makeBenchProject(project, { seed: 'loop', families: ['fx_settle', 'compute_only'], fit: 2, eval: 2 });
    server = await BenchServer.open(model(), { gpu: 'cpu', parallel: 2, maxTokens: 6 });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves greedily and deterministically, records answers, grades and prompt tokens, and resumes', async () => {
    const store = ProjectStore.open(project);
    const first = await serveProject(store, server, { split: 'fit' });
    expect(first.written).toBe(4);
    const t = first.traces[0]!;
    expect(t.id).toBe(`compute_only-0000@${server.modelHash.slice(0, 8)}`);
    expect(validateTrace(JSON.parse(JSON.stringify(t)), 'x', 1).ok).toBe(true);
    expect(t.turns[0]!.answer.length).toBeGreaterThan(0);
    expect(t.turns[0]!.correct).toBe(false); // random weights
    const served = t.meta!.served as { promptTokens: number; modelHash: string; menu: string };
    expect(served).toMatchObject({ modelHash: server.modelHash, menu: 'registry' });
    expect(served.promptTokens).toBe(server.renderer.render({ ...t, turns: [{ ...t.turns[0]!, answer: '' }] }, 0, '').length);
    // The served trace re-executes from itself alone (the scorer's re-execute intervention).
    expect(() => reexecuteWithout(t, 0, 'Calculator')).not.toThrow();

    const again = await serveProject(ProjectStore.open(project), server, { split: 'fit' });
    expect(again.written).toBe(0);
    expect(again.skipped).toBe(4);

    const fresh = await BenchServer.open(model(), { gpu: 'cpu', parallel: 1, maxTokens: 6 });
    try {
      const redo = await fresh.serve(
        first.traces.map((x) => ({
          base: benchRequests(store)
            .byTask.get(x.task!)!
            .fit.find((b) => x.id.startsWith(b.id))!,
          menu: registryNames('loop', 15),
          id: x.id,
        })),
      );
      expect(redo.map((r) => r.trace.turns[0]!.answer)).toEqual(first.traces.map((x) => x.turns[0]!.answer));
    } finally {
      await fresh.close();
    }
  });

  it('scores, sweeps the budget, stores the curve, and a restarted process reuses it', async () => {
    let store = ProjectStore.open(project);
    const served = store.listTraces().filter((t) => t.meta?.served);
    const scored = await scoreBenchTraces(store, server.model, server.renderer, served, { modelHash: server.modelHash, modelName: server.modelName });
    expect(scored.appended).toBe(4);
    expect((await scoreBenchTraces(store, server.model, server.renderer, served, { modelHash: server.modelHash, modelName: server.modelName })).skipped).toBe(
      4,
    );
    const run = chooseRun(store, server.modelHash);
    expect(run).toBe(scored.run);
    const ranking = taskRanking(store.listScores(run), 'fx_settle');
    expect(ranking).toHaveLength(15);
    const requests = benchRequests(store).byTask.get('fx_settle')!;

    const progress: string[] = [];
    const sweep = await sweepTask(store, server, 'fx_settle', requests, ranking, { run, ks: [1, 2, 3], onProgress: (p) => progress.push(p.label) });
    expect(progress).toEqual(['K=1', 'K=2', 'K=3']);
    expect(sweep.points.map((p) => p.tools)).toEqual([1, 2, 3].map((k) => ranking.slice(0, k).map((r) => r.tool)));
    expect(sweep.points[0]!.promptTokens).toBeLessThan(sweep.points[2]!.promptTokens);
    expect(sweep.bestK).toBe(1); // all wrong: the smallest K of the best accuracy

    // A restart: a new store and a new server (empty memo) find the curve on disk and measure nothing.
    store = ProjectStore.open(project);
    expect(SweepResultSchema.parse(store.readSweep('fx_settle'))).toEqual(sweep);
    const other = await BenchServer.open(model(), { gpu: 'cpu', parallel: 1, maxTokens: 6 });
    try {
      const cached = await sweepTask(store, other, 'fx_settle', requests, ranking, { run, ks: [1, 2, 3] });
      expect(other.generated).toBe(0);
      expect(cached.points).toEqual(sweep.points);
    } finally {
      await other.close();
    }
  });

  it('a cancelled sweep keeps the points it measured', async () => {
    const store = ProjectStore.open(project);
    const run = chooseRun(store, server.modelHash);
    const ranking = taskRanking(store.listScores(run), 'compute_only');
    const controller = new AbortController();
    await expect(
      sweepTask(store, server, 'compute_only', benchRequests(store).byTask.get('compute_only')!, ranking, {
        run,
        ks: [1, 2, 3, 4],
        onProgress: (p) => {
          if (p.done === 2) controller.abort();
        },
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(
      ProjectStore.open(project)
        .readSweep('compute_only')!
        .points.map((p) => p.k),
    ).toEqual([1, 2]);
  });

  it('evaluates LOTS at the budget against the baselines and records the space', async () => {
    const store = ProjectStore.open(project);
    const { byTask, registry, seed } = benchRequests(store);
    const result = await evaluateTask(store, server, 'fx_settle', byTask.get('fx_settle')!, registry, { seed, draws: 2 });
    const names = result.sweep.baselines.map((b) => `${b.name}:${b.split}`).sort();
    expect(names).toEqual([
      'bm25:eval',
      'bm25:fit',
      'keep-all:eval',
      'keep-all:fit',
      'lots:eval',
      'lots:fit',
      'no-tools:eval',
      'no-tools:fit',
      'random:eval',
      'random:fit',
    ]);
    const keepAll = result.sweep.baselines.find((b) => b.name === 'keep-all' && b.split === 'eval')!;
    const lots = result.sweep.baselines.find((b) => b.name === 'lots' && b.split === 'eval')!;
    expect(keepAll).toMatchObject({ k: 15, n: 2 });
    expect(lots.promptTokens).toBeLessThan(keepAll.promptTokens);
    // Each evaluation request's outcome is kept, by trace id, for the paired statistics.
    const evalIds = byTask.get('fx_settle')!.eval.map((t) => t.id);
    for (const b of [keepAll, lots]) {
      expect(b.outcomes!.map((o) => o.request)).toEqual(evalIds);
      expect(b.outcomes!.filter((o) => o.correct === 1).length / b.n).toBeCloseTo(b.accuracy, 12);
    }
    const random = result.sweep.baselines.find((b) => b.name === 'random' && b.split === 'eval')!;
    expect(random.outcomes!.every((o) => [0, 0.5, 1].includes(o.correct))).toBe(true);
    expect(result.sweep.baselines.find((b) => b.name === 'random' && b.split === 'fit')).toMatchObject({ draws: 2, k: 1 });
    const spaces = ProjectStore.open(project).readSpaces('fx_settle');
    expect(spaces.versions.at(-1)).toMatchObject({ tools: result.space, rule: { kind: 'topk', k: result.k } });
    // Evaluating again measures nothing new and records no new version.
    const before = server.generated;
    await evaluateTask(store, server, 'fx_settle', byTask.get('fx_settle')!, registry, { seed, draws: 2 });
    expect(server.generated).toBe(before);
    expect(ProjectStore.open(project).readSpaces('fx_settle').versions).toHaveLength(spaces.versions.length);
    // A result written before outcomes were kept (keep-all's, here) is measured again, so the paired
    // statistics can be had
    const stored = store.readSweep('fx_settle')!;
    store.writeSweep({ ...stored, baselines: stored.baselines.map(({ outcomes: _, ...b }) => (b.name === 'keep-all' ? b : { ...b, outcomes: _ })) });
    const again = await evaluateTask(store, server, 'fx_settle', byTask.get('fx_settle')!, registry, { seed, draws: 2 });
    // (from the server's answer cache: the same requests under the same menu are not generated twice)
    expect(server.generated).toBe(before);
    expect(again.sweep.baselines.every((b) => b.outcomes !== undefined)).toBe(true);
  });

  it("two comparisons of one task at once (two `lots evaluate` runs) keep each other's rows", async () => {
    // Each reads the stored sweep when it starts and saves after every measurement; a save that wrote its
    // own copy whole lost the other's rows (seen: a deletion run beside a fixed-K run on one project).
    const { byTask, registry, seed } = benchRequests(ProjectStore.open(project));
    const before = ProjectStore.open(project).readSweep('fx_settle')!;
    const requests = byTask.get('fx_settle')!;
    const [a, b] = await Promise.all([
      compareAtBudget(ProjectStore.open(project), server, 'fx_settle', requests, registry, { seed, draws: 2, baselines: ['oracle'] }),
      compareAtBudget(ProjectStore.open(project), server, 'fx_settle', requests, registry, { seed, draws: 2, baselines: ['lots-k4'] }),
    ]);
    const rows = (sweep: SweepResult) => sweep.baselines.map((r) => `${r.name}:${r.split}`).sort();
    const expected = [...rows(before), 'lots-k4:eval', 'lots-k4:fit', 'oracle:eval', 'oracle:fit'].sort();
    expect(rows(ProjectStore.open(project).readSweep('fx_settle')!)).toEqual(expected);
    // What each returns is what it saved last: the later one holds both.
    expect([rows(a.sweep), rows(b.sweep)]).toContainEqual(expected);
    // The rows measured before are the very rows stored before (not measured again, not lost).
    const stored = ProjectStore.open(project).readSweep('fx_settle')!;
    for (const row of before.baselines) expect(stored.baselines.find((r) => r.name === row.name && r.split === row.split)).toEqual(row);
  });

  it('a comparison stops, and says why, when a `lots sweep` changes the K it measures against', async () => {
    // It used to save its own copy of the points and K over the new sweep's, with rows measured at the old K.
    const store = ProjectStore.open(project);
    const { byTask, registry, seed } = benchRequests(store);
    const before = store.readSweep('fx_settle')!;
    const otherK = before.points.find((p) => p.k !== before.bestK)!.k;
    let changed = false;
    const run = compareAtBudget(ProjectStore.open(project), server, 'fx_settle', byTask.get('fx_settle')!, registry, {
      seed,
      draws: 2,
      baselines: ['no-tools'],
      onProgress: () => {
        if (changed) return;
        changed = true;
        store.writeSweep({ ...before, bestK: otherK }); // another process's sweep, saved meanwhile
      },
    });
    await expect(run).rejects.toMatchObject({
      code: 'SWEEP_CHANGED',
      message: expect.stringMatching(new RegExp(`K ${before.bestK} → ${otherK}.*not yet saved are dropped.*run \`lots evaluate\` again`)),
    });
    const after = store.readSweep('fx_settle')!;
    expect(after.bestK).toBe(otherK);
    expect(after.baselines).toEqual(before.baselines);
    store.writeSweep(before);
  });

  it('continual updates record a space version per batch with running scores', async () => {
    const store = ProjectStore.open(project);
    const { byTask, seed } = benchRequests(store);
    const before = store.readSpaces('compute_only').versions.length;
    const updates = await runBenchContinual(store, server, {
      task: 'compute_only',
      requests: byTask.get('compute_only')!,
      registry: registryNames(seed, 15),
      k: 2,
      batchSize: 1,
      cap: 4,
      epsilon: 0.5,
      seed,
    });
    expect(updates).toHaveLength(2);
    expect(updates[0]!.meanMenuSize).toBe(4);
    const versions = ProjectStore.open(project).readSpaces('compute_only').versions;
    expect(versions).toHaveLength(before + 2);
    expect(versions.at(-1)!.tools).toEqual(updates[1]!.space);
    expect(Object.keys(versions.at(-1)!.runningScores!).length).toBeGreaterThanOrEqual(2);
  });
});
