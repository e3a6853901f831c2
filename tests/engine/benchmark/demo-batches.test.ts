// `lots demo` gives each family a real update history at no extra model cost: its fitting requests are
// served in two imports (every family's first half, then the rest: serveProject's `batches`), and after
// the budget sweep the two imports are folded as the family's update batches, top-K at the sweep's K, by
// the update use case's fold. A rerun on the same folder folds nothing again. With the random-weight
// fixture model (its answers mean nothing; the mechanics are what is checked).
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { batchOf, serveProject } from '../../../electron/engine/benchmark/serve-project';
import { BenchServer } from '../../../electron/engine/benchmark/server';
import { DEMO_FIT_BATCHES, runDemo, type DemoOptions } from '../../../electron/engine/benchmark/demo';
import { StudioService } from '../../../electron/engine/api';
import { approvedSpace } from '../../../electron/engine/read-model/approved-space';
import { ProjectStore } from '../../../electron/engine/store';
import { DEFAULT_UPDATE_ALPHA } from '../../../shared/project/updates';

const model = () => ensureFixtureModel(resolve('tests/.fixtures/models'), { kind: 'random' });

/** The project's imports in import order: file, source, and the ids of the traces each holds. */
function imports(store: ProjectStore): Array<{ file: string; source: string; ids: string[] }> {
  const byFile = new Map<string, string[]>();
  for (const info of store.traceInfos()) byFile.set(info.file, [...(byFile.get(info.file) ?? []), info.id]);
  return [...byFile.keys()].sort().map((file) => ({ file, source: store.importSource(file) ?? '', ids: byFile.get(file)!.sort() }));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-demo-batches-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serveProject in batches', () => {
  it('splits a task of m requests into its first ⌈m/2⌉ and the rest (n parts: consecutive, the earlier ones larger)', () => {
    const parts = (m: number, n: number) => Array.from({ length: m }, (_, i) => batchOf(i, m, n));
    expect(parts(1, 2)).toEqual([0]);
    expect(parts(2, 2)).toEqual([0, 1]);
    expect(parts(3, 2)).toEqual([0, 0, 1]);
    expect(parts(4, 2)).toEqual([0, 0, 1, 1]);
    expect(parts(5, 3)).toEqual([0, 0, 1, 1, 2]);
    expect(parts(3, 1)).toEqual([0, 0, 0]);
  });

  it("writes every task's first half as one import and the second halves as another; a resumed serve writes only what is missing", async () => {
    const project = join(dir, 'serve');
    makeBenchProject(project, { seed: 'batches', families: ['compute_only', 'no_tool'], fit: 3, eval: 1 });
    const server = await BenchServer.open(model(), { gpu: 'cpu', parallel: 2, maxTokens: 3, threads: 1 });
    try {
      const store = ProjectStore.open(project);
      const id = (task: string, i: number) => `${task}-000${i}@${server.modelHash.slice(0, 8)}`;
      const source = (b: number) => `lots serve (${server.modelName}, registry, batch ${b} of 2)`;
      // compute_only first (as an interrupted run would have), then every task: only no_tool is served.
      const first = await serveProject(store, server, { split: 'fit', tasks: ['compute_only'], batches: 2 });
      expect(first).toMatchObject({ written: 3, skipped: 0 });
      const again = await serveProject(ProjectStore.open(project), server, { split: 'fit', batches: 2 });
      expect(again).toMatchObject({ written: 3, skipped: 3 });
      const served = imports(ProjectStore.open(project)).slice(1); // the first import is the generated requests
      expect(served).toEqual([
        { file: expect.any(String), source: source(1), ids: [id('compute_only', 0), id('compute_only', 1)] },
        { file: expect.any(String), source: source(2), ids: [id('compute_only', 2)] },
        { file: expect.any(String), source: source(1), ids: [id('no_tool', 0), id('no_tool', 1)] },
        { file: expect.any(String), source: source(2), ids: [id('no_tool', 2)] },
      ]);
      // Nothing left to serve: no import at all.
      const none = await serveProject(ProjectStore.open(project), server, { split: 'fit', batches: 2 });
      expect(none).toMatchObject({ written: 0, skipped: 6 });
      expect(imports(ProjectStore.open(project))).toHaveLength(5);

      // Every task's parts in one call: batch 1 holds both tasks' first halves, in task order.
      const both = join(dir, 'serve-both');
      makeBenchProject(both, { seed: 'batches', families: ['compute_only', 'no_tool'], fit: 3, eval: 1 });
      const progress: number[] = [];
      const all = await serveProject(ProjectStore.open(both), server, { split: 'fit', batches: 2, onProgress: (d) => progress.push(d) });
      expect(all.written).toBe(6);
      expect(progress.at(-1)).toBe(6);
      expect(imports(ProjectStore.open(both)).slice(1)).toEqual([
        { file: expect.any(String), source: source(1), ids: [id('compute_only', 0), id('compute_only', 1), id('no_tool', 0), id('no_tool', 1)] },
        { file: expect.any(String), source: source(2), ids: [id('compute_only', 2), id('no_tool', 2)] },
      ]);
      // The default is one import, as before (a task with one request has one part either way).
      const evalServe = await serveProject(ProjectStore.open(both), server, { split: 'eval' });
      expect(evalServe.written).toBe(2);
      expect(imports(ProjectStore.open(both)).at(-1)!.source).toBe(`lots serve (${server.modelName}, registry)`);
    } finally {
      await server.close();
    }
  });
});

describe('lots demo folds its two fitting imports', () => {
  const families = ['compute_only', 'no_tool'];
  let out: string;
  let options: DemoOptions;
  const lines: string[] = [];

  beforeAll(() => {
    out = join(dir, 'demo');
    options = {
      out,
      modelPath: model(),
      families: families as DemoOptions['families'],
      fit: 3,
      eval: 1,
      draws: 1,
      kMax: 2,
      maxTokens: 3,
      threads: 1,
      gpu: 'cpu',
      baselines: ['keep-all'],
      log: (line) => lines.push(line),
    };
  });

  it("serves the fitting requests in two imports and folds them into each family's history at the sweep's K", async () => {
    await runDemo(options);
    const store = ProjectStore.open(out);
    const served = imports(store).filter((i) => i.source.startsWith('lots serve'));
    expect(served.map((i) => i.source.replace(/^.*, /, ''))).toEqual(['batch 1 of 2)', 'batch 2 of 2)']);
    expect(DEMO_FIT_BATCHES).toBe(served.length);
    expect(served.map((i) => i.ids.length)).toEqual([4, 2]);
    expect(lines.join('\n')).toContain('2/5 served 6 fitting requests under the whole registry, in 2 batches');
    for (const task of families) {
      const sweep = store.readSweep(task)!;
      expect(sweep.bestK).toBeGreaterThan(0);
      const updates = store.readUpdates(task)!;
      expect(updates).toMatchObject({ task, alpha: DEFAULT_UPDATE_ALPHA, rule: { kind: 'topk', k: sweep.bestK }, run: sweep.run });
      expect(updates.batches.map((b) => [b.batch, b.source, b.traces, b.scored])).toEqual([
        [1, served[0]!.file, 2, 2],
        [2, served[1]!.file, 1, 1],
      ]);
      expect(updates.batches.map((b) => b.label)).toEqual([served[0]!.source, served[1]!.source]);
      for (const b of updates.batches) expect(b.proposed.length).toBeLessThanOrEqual(sweep.bestK!);
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ {3}${task}: folded 2 batches \\(α = 0\\.2, top-${sweep.bestK}\\), proposal `)));
    }
  }, 600_000);

  it('the History data of the demo project has both batches and nothing waiting (the generated requests are not a batch)', async () => {
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(dir, 'cfg-')) });
    await service.openProject({ dir: out });
    for (const task of families) {
      const history = await service.getHistory({ task });
      expect(history.updates?.batches).toHaveLength(2);
      expect(history.waiting).toEqual([]);
      expect(history.proposal).toEqual(history.updates!.batches[1]!.proposed);
      // The approved space as the read model says it (the demo accepted the LOTS space): the views read it, never compute it.
      expect(history.approved).not.toBeNull();
      expect(history.approved).toEqual(approvedSpace(ProjectStore.open(out), task));
    }
  });

  it('a rerun on the same folder adds no import and folds no batch again', async () => {
    const store = ProjectStore.open(out);
    const before = families.map((task) => store.readUpdates(task));
    const files = imports(store).length;
    lines.length = 0;
    await runDemo(options);
    const after = ProjectStore.open(out);
    expect(imports(after)).toHaveLength(files);
    expect(families.map((task) => after.readUpdates(task))).toEqual(before);
    for (const task of families) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ {3}${task}: 2 batches folded before `)));
  }, 600_000);
});
