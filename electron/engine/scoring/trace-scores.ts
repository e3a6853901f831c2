// From per-token log-probs to the paper's scores (B.2, eq. 7):
//   L(y | h) = mean log p of the scored tokens;  I_x(s) = L(y | h) − L(y | h^{−s}) per turn;
//   multi-turn records average the turn-level differences over the turns where s was scoreable;
//   a record with no scoreable turn contributes nothing (a row with no scores).
import type { Token } from 'node-llama-cpp';
import type { StoredScore, TurnScoreDetail } from '../../../shared/project/scores';
import type { TracePlan } from './plan';
import type { EvaluationMode, SequenceRunner } from './sequence-runner';
import { setOwn } from '../../../shared/trace/own-record';

export interface TurnLogprobs {
  turn: number;
  base: number[];
  removed: Map<string, number[]>;
}

/**
 * Evaluate every sequence of a plan. On one runner (one llama.cpp sequence): one after another, each
 * reusing the cache the previous left. On several (the fast read): the first evaluates the base and
 * keeps it; the others take the interventions from a queue, each first taking the base's prefix over
 * from the first runner's KV cells (shared, not evaluated again), so that the interventions' changed
 * tails are decoded side by side in shared batches.
 */
export async function evaluatePlan(plan: TracePlan, runners: SequenceRunner | readonly SequenceRunner[], mode: EvaluationMode): Promise<TurnLogprobs[]> {
  const all: readonly SequenceRunner[] = Array.isArray(runners) ? runners : [runners as SequenceRunner];
  const first = all[0]!;
  const lanes = mode === 'naive' ? [] : all.slice(1);
  const out: TurnLogprobs[] = [];
  for (const turn of plan.turns) {
    const label = `trace "${plan.trace.id}" turn ${turn.turn}`;
    const base = await first.logprobs(turn.base, mode, label);
    const removed = new Map<string, number[]>();
    if (lanes.length === 0) {
      for (const iv of turn.interventions) removed.set(iv.tool, await first.logprobs(iv.sequence, mode, `${label} without ${iv.tool}`));
    } else {
      const results: number[][] = new Array<number[]>(turn.interventions.length);
      let next = 0;
      await Promise.all(
        lanes.map(async (runner) => {
          while (next < turn.interventions.length) {
            const index = next++;
            const iv = turn.interventions[index]!;
            await runner.shareFrom(first, iv.sequence);
            results[index] = await runner.logprobs(iv.sequence, mode, `${label} without ${iv.tool}`);
          }
        }),
      );
      turn.interventions.forEach((iv, i) => removed.set(iv.tool, results[i]!));
    }
    out.push({ turn: turn.turn, base, removed });
  }
  return out;
}

export function meanLogprob(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

export interface ScoreRecordMeta {
  key: string;
  run: string;
  traceHash: string;
  model: string;
  modelName: string;
  intervention: StoredScore['intervention'];
  span: StoredScore['span'];
  /** The renderer's format ('plain' or the chat wrapper's name). */
  format?: string;
  /** Detokenize one token for the inspector's per-token view. */
  piece: (token: Token) => string;
}

export function toStoredScore(plan: TracePlan, logprobs: readonly TurnLogprobs[], meta: ScoreRecordMeta): StoredScore {
  const sums = new Map<string, { total: number; turns: number }>();
  const shared = new Map<string, Set<string>>();
  const turns: TurnScoreDetail[] = [];
  logprobs.forEach((lp, i) => {
    const turnPlan = plan.turns[i]!;
    const base = meanLogprob(lp.base);
    const removed: Record<string, number> = {};
    const removedTokenLogprobs: Record<string, number[]> = {};
    for (const iv of turnPlan.interventions) {
      const values = lp.removed.get(iv.tool)!;
      const l = meanLogprob(values);
      setOwn(removed, iv.tool, l);
      setOwn(removedTokenLogprobs, iv.tool, values);
      const acc = sums.get(iv.tool) ?? { total: 0, turns: 0 };
      acc.total += base - l;
      acc.turns++;
      sums.set(iv.tool, acc);
      if (iv.sharedWith.length > 0) {
        const set = shared.get(iv.tool) ?? new Set<string>();
        for (const s of iv.sharedWith) set.add(s);
        shared.set(iv.tool, set);
      }
    }
    const b = turnPlan.base;
    turns.push({
      turn: lp.turn,
      base,
      removed,
      tokens: b.tokens.slice(b.start, b.end).map(meta.piece),
      baseTokenLogprobs: lp.base,
      removedTokenLogprobs,
    });
  });
  const scores: Record<string, number> = {};
  for (const tool of [...sums.keys()].sort()) {
    const { total, turns: n } = sums.get(tool)!;
    setOwn(scores, tool, total / n);
  }
  return {
    key: meta.key,
    run: meta.run,
    trace: plan.trace.id,
    ...(plan.trace.task !== undefined ? { task: plan.trace.task } : {}),
    exposed: plan.exposed,
    scores,
    traceHash: meta.traceHash,
    model: meta.model,
    modelName: meta.modelName,
    intervention: meta.intervention,
    span: meta.span,
    ...(meta.format !== undefined ? { format: meta.format } : {}),
    ...(shared.size > 0 ? { shared: Object.fromEntries([...shared].map(([k, v]) => [k, [...v].sort()])) } : {}),
    turns,
    ...(plan.unscored && plan.unscored.length > 0 ? { unscoredTurns: plan.unscored } : {}),
    createdAt: new Date().toISOString(),
  };
}
