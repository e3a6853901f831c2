import { describe, expect, it } from 'vitest';
import { compareSpaces, runBudgetSweep, type MenuEvaluator } from '../../../shared/benchmark/sweep';
import type { SweepResult } from '../../../shared/project/sweeps';
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
