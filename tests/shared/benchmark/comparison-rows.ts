// Building comparison rows by hand for the tables under the comparison (paired, fixed-K): one evaluation
// result per method, its outcomes given as 0/1 per request.
import type { ComparisonRow } from '../../../shared/benchmark/comparison-table';
import type { BaselineResult } from '../../../shared/project/sweeps';

/** A method's evaluation result: `correct[i]` is request r<i>'s outcome (or ids[i]'s), every prompt `tokens` long. */
export function evalResult(name: string, correct: number[], tokens = 100, ids?: string[]): BaselineResult {
  return {
    name,
    k: 2,
    tools: [],
    accuracy: correct.reduce((a, b) => a + b, 0) / correct.length,
    n: correct.length,
    promptTokens: tokens,
    split: 'eval',
    outcomes: correct.map((c, i) => ({ request: ids?.[i] ?? `r${i}`, correct: c, promptTokens: tokens })),
  };
}

/** One family's row: LOTS's chosen K and each method's evaluation result. */
export function comparisonRow(task: string, results: BaselineResult[], k = 2): ComparisonRow {
  return { task, k, space: [], results: new Map(results.map((r) => [r.name, { eval: r }])) };
}
