import { describe, expect, it } from 'vitest';
import { compareSpaces, mergeBaselineRows, mergeSweepSave, runBudgetSweep, staleRowsNote, type MenuEvaluator } from '../../../shared/benchmark/sweep';
import type { BaselineResult, SweepResult } from '../../../shared/project/sweeps';
import { SweepResultSchema } from '../../../shared/project/sweeps';

const ranking = [
  { tool: 'DocRetrieve', mean: 0.9 },
  { tool: 'ExchangeRate', mean: 0.7 },
  { tool: 'Calculator', mean: 0.5 },
  { tool: 'Barcode', mean: -0.1 },
];

/** Accuracy 1 when the whole chain is served, minus 0.1 per extra tool. */
function fakeEvaluator(calls: string[][]): MenuEvaluator {
  return async (menu) => {
    calls.push([...menu]);
    const chain = ['DocRetrieve', 'ExchangeRate', 'Calculator'].every((t) => menu.includes(t));
    return { accuracy: chain ? 1 - 0.1 * (menu.length - 3) : 0, n: 10, promptTokens: 100 + 50 * menu.length };
  };
}

describe('budget sweep', () => {
  it('measures every K of the grid and keeps the smallest K with the best fitting accuracy', async () => {
    const calls: string[][] = [];
    const saved: SweepResult[] = [];
    const progress: string[] = [];
    const result = await runBudgetSweep({
      task: 'fx_settle',
      model: 'm1',
      ranking,
      evaluate: fakeEvaluator(calls),
      now: () => 'T',
      save: (r) => void saved.push(r),
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    });
    expect(result.points.map((p) => [p.k, p.accuracy])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0.9],
    ]);
    expect(result.points[2]!.tools).toEqual(['DocRetrieve', 'ExchangeRate', 'Calculator']);
    expect(result.bestK).toBe(3);
    expect(result.points[0]!.promptTokens).toBe(150);
    expect(calls).toHaveLength(4);
    expect(progress).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(saved.length).toBeGreaterThanOrEqual(4); // saved after every point: resumable
    expect(SweepResultSchema.parse(result)).toEqual(result);
  });

  it('reuses points already measured for the same task, K, model and tools; recomputes otherwise', async () => {
    const first = await runBudgetSweep({ task: 'fx', model: 'm1', ranking, ks: [1, 2], evaluate: fakeEvaluator([]), now: () => 'T1' });
    const calls: string[][] = [];
    const second = await runBudgetSweep({ task: 'fx', model: 'm1', ranking, ks: [1, 2, 3], previous: first, evaluate: fakeEvaluator(calls), now: () => 'T2' });
    expect(calls).toEqual([['DocRetrieve', 'ExchangeRate', 'Calculator']]);
    expect(second.points).toHaveLength(3);
    expect(second.createdAt).toBe('T2');
    // A resume with nothing new to measure keeps the date the points were measured on.
    const again = await runBudgetSweep({ task: 'fx', model: 'm1', ranking, ks: [1, 2, 3], previous: second, evaluate: fakeEvaluator([]), now: () => 'T3' });
    expect(again.createdAt).toBe('T2');
    const otherModel: string[][] = [];
    await runBudgetSweep({ task: 'fx', model: 'm2', ranking, ks: [1, 2], previous: first, evaluate: fakeEvaluator(otherModel) });
    expect(otherModel).toHaveLength(2);
    const reranked: string[][] = [];
    await runBudgetSweep({
      task: 'fx',
      model: 'm1',
      ranking: [ranking[1]!, ranking[0]!, ranking[2]!],
      ks: [1, 2],
      previous: first,
      evaluate: fakeEvaluator(reranked),
    });
    expect(reranked).toEqual([['ExchangeRate']]); // K=2 is the same set of tools, served in the same canonical order
  });

  it('stops when cancelled, keeping what it saved, and resumes from it', async () => {
    const controller = new AbortController();
    let saved: SweepResult | undefined;
    const evaluate: MenuEvaluator = async (menu) => {
      if (menu.length === 2) controller.abort();
      return { accuracy: menu.length / 4, n: 1, promptTokens: 1 };
    };
    await expect(
      runBudgetSweep({
        task: 't',
        model: 'm',
        ranking,
        evaluate,
        signal: controller.signal,
        save: (r) => {
          saved = r;
        },
      }),
    ).rejects.toThrow();
    expect(saved!.points.map((p) => p.k)).toEqual([1, 2]);
    const calls: string[][] = [];
    const resumed = await runBudgetSweep({ task: 't', model: 'm', ranking, previous: saved, evaluate: fakeEvaluator(calls) });
    expect(calls.map((c) => c.length)).toEqual([3, 4]);
    expect(resumed.points.map((p) => p.k)).toEqual([1, 2, 3, 4]);
  });
});

describe('side-by-side comparison', () => {
  it('measures each space on each split, Random as mean ± std over draws, and caches', async () => {
    const calls: string[][] = [];
    const evaluate: MenuEvaluator = async (menu, split) => {
      calls.push([split, ...menu]);
      return { accuracy: menu.includes('A') ? 1 : 0, n: split === 'fit' ? 4 : 8, promptTokens: 10 * menu.length };
    };
    const spaces = [
      { name: 'keep-all', k: 3, menus: [['A', 'B', 'C']] },
      { name: 'random', k: 1, menus: [['A'], ['B'], ['C'], ['A']] },
    ];
    const results = await compareSpaces({ spaces, splits: ['fit', 'eval'], evaluate });
    const random = results.find((r) => r.name === 'random' && r.split === 'eval')!;
    expect(random.accuracy).toBe(0.5);
    expect(random.accuracyStd).toBe(0.5);
    expect(random.draws).toBe(4);
    expect(random.n).toBe(8);
    expect(results.find((r) => r.name === 'keep-all' && r.split === 'fit')).toMatchObject({ accuracy: 1, promptTokens: 30, k: 3, tools: ['A', 'B', 'C'] });
    expect(calls).toHaveLength(10);
    const again: string[][] = [];
    const cached = await compareSpaces({
      spaces,
      splits: ['fit', 'eval'],
      evaluate: async (m, s) => {
        again.push([s, ...m]);
        return evaluate(m, s);
      },
      previous: results,
    });
    expect(again).toHaveLength(0);
    expect(cached).toEqual(results);
    const changed = await compareSpaces({ spaces: [{ name: 'keep-all', k: 2, menus: [['A', 'B']] }], splits: ['fit'], evaluate, previous: results });
    expect(changed.filter((r) => r.name === 'keep-all' && r.split === 'fit')).toEqual([expect.objectContaining({ k: 2 })]);
  });

  it('keeps the measurement of a menu chosen again under another embedder, and records the new embedder', async () => {
    const evaluate: MenuEvaluator = async () => ({ accuracy: 0.5, n: 2, promptTokens: 10 });
    const cost = (embedder: string) => ({ per: 'fit' as const, promptTokens: 7, calls: 3, budget: 1, embedder });
    const first = await compareSpaces({
      spaces: [{ name: 'dense', k: 1, menus: [['A']], cost: cost('decoder'), note: 'embedder: decoder' }],
      splits: ['fit'],
      evaluate,
    });
    const served: string[][] = [];
    const again = await compareSpaces({
      spaces: [{ name: 'dense', k: 1, menus: [['A']], cost: cost('encoder'), note: 'embedder: encoder' }],
      splits: ['fit'],
      evaluate: async (m, s) => {
        served.push([...m]);
        return evaluate(m, s);
      },
      previous: first,
    });
    expect(served).toEqual([]);
    expect(again).toEqual([expect.objectContaining({ name: 'dense', accuracy: 0.5, selection: cost('encoder'), note: 'embedder: encoder' })]);
  });
});

describe('a new sweep and the rows measured against the old one', () => {
  const row = (name: string, k: number): SweepResult['baselines'][number] => ({
    name,
    k,
    tools: ranking.slice(0, k).map((r) => r.tool),
    accuracy: 0.5,
    n: 10,
    promptTokens: 200,
  });
  const names = ['keep-all', 'oracle', 'lots', 'lots-k2', 'lots-deferred', 'lots-drop-top', 'bm25', 'random', 'dense-k2', 'tool2vec'];
  const before = (run: string): SweepResult => ({
    task: 'fx_settle',
    model: 'm1',
    run,
    points: [],
    bestK: 3,
    // Each at the K it was measured at: LOTS's K = 3, one fewer for the deletion row, 2 for the fixed-K rows.
    baselines: names.map((n) => row(n, n === 'keep-all' ? 4 : n.endsWith('-k2') || n === 'lots-drop-top' ? 2 : 3)),
    createdAt: 'T0',
  });
  const sweep = async (previous: SweepResult, run: string, evaluate: MenuEvaluator) => {
    const stale: string[][] = [];
    const saved: SweepResult[] = [];
    const result = await runBudgetSweep({
      task: 'fx_settle',
      model: 'm1',
      run,
      ranking,
      previous,
      evaluate,
      onStale: (m) => void stale.push(m),
      save: (r) => void saved.push(r),
    });
    return { result, stale, saved, kept: result.baselines.map((b) => b.name) };
  };

  it("drops the rows built from LOTS's ranking when the ranking comes from another scoring run", async () => {
    const { result, stale, saved, kept } = await sweep(before('r1'), 'r2', fakeEvaluator([]));
    expect(result.bestK).toBe(3); // the same K: the rows that follow only the budget stand
    expect(kept).toEqual(['keep-all', 'oracle', 'bm25', 'random', 'dense-k2', 'tool2vec']);
    expect(stale).toEqual([['lots', 'lots-k2', 'lots-deferred', 'lots-drop-top']]);
    // Every save already lacks them: a sweep stopped halfway does not keep them for its resume.
    expect(saved.every((s) => !s.baselines.some((b) => b.name.startsWith('lots')))).toBe(true);
  });

  it("drops the rows that follow LOTS's space or its K when the same ranking's sweep chooses another K", async () => {
    // Every menu answers alike: the smallest K (1) is chosen, not the earlier 3.
    const flat: MenuEvaluator = async (menu) => ({ accuracy: 0.5, n: 10, promptTokens: 100 + 50 * menu.length });
    const { result, stale, kept } = await sweep(before('r1'), 'r1', flat);
    expect(result.bestK).toBe(1);
    expect(kept).toEqual(['keep-all', 'oracle', 'lots-k2', 'dense-k2']);
    expect(stale).toEqual([['lots', 'lots-deferred', 'lots-drop-top', 'bm25', 'random', 'tool2vec']]);
  });

  it('keeps every row when neither the ranking nor K changed', async () => {
    const { result, stale, kept } = await sweep(before('r1'), 'r1', fakeEvaluator([]));
    expect(result.bestK).toBe(3);
    expect(kept).toEqual(names);
    expect(stale).toEqual([]);
  });
});

describe('what a front end says of the dropped rows', () => {
  it('names them, why, and the lots evaluate that measures them again (LOTS is always measured, so not named)', () => {
    expect(staleRowsNote(['lots', 'bm25', 'lots-deferred'])).toBe(
      'the stored rows of lots, bm25, lots-deferred were measured against the previous ranking or K and are dropped; lots evaluate --baselines bm25,lots-deferred measures them again',
    );
    expect(staleRowsNote(['lots'])).toBe(
      'the stored rows of lots were measured against the previous ranking or K and are dropped; lots evaluate measures them again',
    );
  });

  it('says which the caller measured again itself on the fitting requests', () => {
    expect(staleRowsNote(['lots', 'lots-deferred', 'random'], ['lots', 'keep-all', 'random'])).toBe(
      'the stored rows of lots, lots-deferred, random were measured against the previous ranking or K and are dropped (measured again here on the fitting requests: lots, random); lots evaluate --baselines lots-deferred,random measures them again',
    );
  });
});

describe('two writers of one sweep (mergeBaselineRows)', () => {
  const row = (name: string, split: 'fit' | 'eval', accuracy: number): BaselineResult => ({
    name,
    split,
    k: 2,
    tools: ['Calculator'],
    accuracy,
    n: 4,
    promptTokens: 100,
  });
  const names = (rows: readonly BaselineResult[]) => rows.map((r) => `${r.name}:${r.split}:${r.accuracy}`);

  it("keeps this writer's measured rows and the rows the other writer added meanwhile", () => {
    const lots = row('lots', 'fit', 0.5);
    const base = [lots];
    const ours = [lots, row('oracle', 'fit', 0.75)];
    const theirs = [row('lots', 'fit', 0.5), row('dense-k2', 'fit', 0.25)];
    expect(names(mergeBaselineRows(base, ours, theirs))).toEqual(['lots:fit:0.5', 'oracle:fit:0.75', 'dense-k2:fit:0.25']);
  });

  it("takes the file's version of a row this writer left alone, and its own of a row it replaced", () => {
    const keep = row('keep-all', 'eval', 0.25);
    const stale = row('random', 'eval', 0.1);
    const base = [keep, stale];
    const ours = [keep, row('random', 'eval', 0.2)];
    const theirs = [row('keep-all', 'eval', 0.3), row('random', 'eval', 0.15)];
    expect(names(mergeBaselineRows(base, ours, theirs))).toEqual(['keep-all:eval:0.3', 'random:eval:0.2']);
  });

  it('a row this writer dropped stays dropped; a row the other dropped is not brought back', () => {
    const a = row('lots-deferred', 'fit', 0.4);
    const b = row('bm25', 'fit', 0.3);
    const base = [a, b];
    const ours = [b];
    const theirs = [row('lots-deferred', 'fit', 0.4)];
    expect(names(mergeBaselineRows(base, ours, theirs))).toEqual([]);
  });

  it('with no other writer it stores exactly what this writer has', () => {
    const base = [row('lots', 'fit', 0.5)];
    const ours = [...base, row('no-tools', 'fit', 0)];
    expect(mergeBaselineRows(base, ours, base)).toEqual(ours);
  });
});

describe('a sweep saving while `lots evaluate` writes the same file (update)', () => {
  const row = (name: string, k: number, accuracy: number): BaselineResult => ({
    name,
    split: 'eval',
    k,
    tools: ['DocRetrieve'],
    accuracy,
    n: 4,
    promptTokens: 100,
  });
  /** The file as the store holds it; `during` runs at the first save, as another process would. */
  function file(initial: SweepResult | undefined, during: (f: { value: SweepResult | undefined }) => void) {
    const f = { value: initial };
    let saves = 0;
    const update = (merge: (stored: SweepResult | undefined) => SweepResult) => {
      if (saves++ === 0) during(f);
      f.value = merge(f.value);
      return f.value;
    };
    return { f, update };
  }

  it("keeps rows the other writer added meanwhile, and drops the file's rows the new K leaves stale", async () => {
    // The stored sweep chose K = 4 with one point; the new sweep measures 1…4 and chooses K = 3.
    const before: SweepResult = { task: 'fx', model: 'm1', run: 'r1', points: [], bestK: 4, baselines: [row('keep-all', 4, 0.25)], createdAt: 'T0' };
    const { f, update } = file(before, (g) => {
      // `lots evaluate` saves two rows while the sweep runs: one that does not follow K, one at the old K.
      g.value = { ...g.value!, baselines: [...g.value!.baselines, row('no-tools', 0, 0), row('random', 4, 0.1)] };
    });
    const stale: string[][] = [];
    const result = await runBudgetSweep({
      task: 'fx',
      model: 'm1',
      run: 'r1',
      ranking,
      previous: before,
      evaluate: fakeEvaluator([]),
      update,
      onStale: (m) => stale.push(m),
    });
    expect(result.bestK).toBe(3);
    expect(result.baselines.map((b) => b.name)).toEqual(['keep-all', 'no-tools']);
    expect(f.value).toEqual(result);
    expect(stale).toEqual([['random']]);
  });

  it('without the other writer it stores what `save` would', async () => {
    const saved: SweepResult[] = [];
    const plain = await runBudgetSweep({ task: 'fx', model: 'm1', ranking, evaluate: fakeEvaluator([]), now: () => 'T', save: (r) => void saved.push(r) });
    const { f, update } = file(undefined, () => {});
    const merged = await runBudgetSweep({ task: 'fx', model: 'm1', ranking, evaluate: fakeEvaluator([]), now: () => 'T', update });
    expect(merged).toEqual(plain);
    expect(f.value).toEqual(saved.at(-1));
  });

  it("does not keep the file's rows of another model", () => {
    const ours: SweepResult = { task: 'fx', model: 'm2', points: [], baselines: [], createdAt: 'T' };
    const stored: SweepResult = { ...ours, model: 'm1', baselines: [row('no-tools', 0, 0)] };
    expect(mergeSweepSave([], ours, stored, { rankingChanged: false }).result.baselines).toEqual([]);
  });
});

describe('a sweep stopped halfway and resumed', () => {
  it('judges the rows that follow the budget by their own K once complete, so the resume drops them as the whole sweep would', async () => {
    const stored: SweepResult = {
      task: 'fx_settle',
      model: 'm1',
      run: 'r1',
      points: [],
      bestK: 3,
      baselines: [
        { name: 'bm25', k: 3, tools: ['A', 'B', 'C'], accuracy: 0.5, n: 10, promptTokens: 200 },
        { name: 'lots', k: 3, tools: ['A', 'B', 'C'], accuracy: 0.5, n: 10, promptTokens: 200 },
        { name: 'keep-all', k: 4, tools: ['A', 'B', 'C', 'D'], accuracy: 0.5, n: 10, promptTokens: 200 },
      ],
      createdAt: 'T0',
    };
    const flat: MenuEvaluator = async (menu) => ({ accuracy: 0.5, n: 10, promptTokens: 100 + 50 * menu.length });
    const saved: SweepResult[] = [];
    const abort = new AbortController();
    const stopping: MenuEvaluator = async (menu, split, signal) => {
      if (saved.length === 2) abort.abort(new Error('stopped'));
      return flat(menu, split, signal);
    };
    await expect(
      runBudgetSweep({
        task: 'fx_settle',
        model: 'm1',
        run: 'r2',
        ranking,
        previous: stored,
        evaluate: stopping,
        save: (r) => void saved.push(r),
        signal: abort.signal,
      }),
    ).rejects.toThrow('stopped');
    const partial = saved.at(-1)!;
    // Halfway: LOTS's row (another ranking) is gone already; BM25's waits for the sweep's K.
    expect(partial.baselines.map((b) => b.name)).toEqual(['bm25', 'keep-all']);
    const stale: string[][] = [];
    const resumed = await runBudgetSweep({
      task: 'fx_settle',
      model: 'm1',
      run: 'r2',
      ranking,
      previous: partial,
      evaluate: flat,
      onStale: (m) => void stale.push(m),
    });
    expect(resumed.bestK).toBe(1);
    expect(resumed.baselines.map((b) => b.name)).toEqual(['keep-all']);
    expect(stale).toEqual([['bm25']]);
  });
});
