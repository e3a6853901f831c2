// How far two scorings of the same traces agree on the ranking: per task, Ī_t(s) (the mean of I over
// the traces where s was scored) and Kendall's τ-b between two such rankings.
import type { TraceResult } from '../../../../electron/engine/scoring/scorer';
import { meanLogprob } from '../../../../electron/engine/scoring/trace-scores';

/** task → tool → Ī over the task's traces (turns averaged per trace, as toStoredScore does). */
export function perTaskMeans(results: readonly TraceResult[]): Map<string, Map<string, number>> {
  const sums = new Map<string, Map<string, { total: number; n: number }>>();
  for (const r of results) {
    const task = r.plan.trace.task ?? '';
    const perTool = new Map<string, { total: number; turns: number }>();
    for (const t of r.logprobs) {
      const base = meanLogprob(t.base);
      for (const [tool, values] of t.removed) {
        const acc = perTool.get(tool) ?? { total: 0, turns: 0 };
        acc.total += base - meanLogprob(values);
        acc.turns++;
        perTool.set(tool, acc);
      }
    }
    const bucket = sums.get(task) ?? new Map();
    for (const [tool, { total, turns }] of perTool) {
      const acc = bucket.get(tool) ?? { total: 0, n: 0 };
      acc.total += total / turns;
      acc.n++;
      bucket.set(tool, acc);
    }
    sums.set(task, bucket);
  }
  return new Map([...sums].map(([task, tools]) => [task, new Map([...tools].map(([tool, { total, n }]) => [tool, total / n]))]));
}

/** Kendall's τ-b of the values two scorings give the same keys (1: the same order). */
export function kendallTau(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const keys = [...a.keys()].filter((k) => b.has(k));
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      const da = Math.sign(a.get(keys[i]!)! - a.get(keys[j]!)!);
      const db = Math.sign(b.get(keys[i]!)! - b.get(keys[j]!)!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denominator = Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
  return denominator === 0 ? 1 : (concordant - discordant) / denominator;
}
