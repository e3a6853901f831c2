// From per-token log-probs to the paper's scores (B.2, eq. 7):
//   L(y | h) = mean log p of the scored tokens;  I_x(s) = L(y | h) − L(y | h^{−s}) per turn;
//   multi-turn records average the turn-level differences over the turns where s was scoreable;
//   a record with no scoreable turn contributes nothing (a row with no scores).
import type { Token } from 'node-llama-cpp';
import type { StoredScore, TurnScoreDetail } from '../../../shared/project/scores';
import type { InterventionPlan, TracePlan } from './plan';
import type { ScoringSequence } from './span';
import type { EvaluationMode, SequenceRunner } from './sequence-runner';
import { setOwn } from '../../../shared/trace/own-record';

export interface TurnLogprobs {
  turn: number;
  base: number[];
  removed: Map<string, number[]>;
}

/** How far the evaluation of one trace's plan has come: sequences (a base or an intervention at one turn)
 * and their scored tokens, done and in all. */
export interface PlanProgress {
  sequencesDone: number;
  sequences: number;
  scoredTokensDone: number;
  scoredTokens: number;
}

/** Sequences and scored tokens of a plan (what PlanProgress counts towards). */
export function planSize(plan: TracePlan): { sequences: number; scoredTokens: number } {
  let sequences = 0;
  let scoredTokens = 0;
  for (const turn of plan.turns) {
    for (const s of [turn.base, ...turn.interventions.map((i) => i.sequence)]) {
      sequences++;
      scoredTokens += s.end - s.start;
    }
  }
  return { sequences, scoredTokens };
}

/** One intervention followed over the whole record: its sequence at every turn where it is scored. */
interface Chain {
  tool: string;
  steps: Array<{ turn: number; iv: InterventionPlan }>;
}

/** The plan's interventions as chains, one per tool, each in turn order; ordered by descending first
 * changed token at the chain's first turn (on one runner each truncation then keeps the next one's prefix). */
function chainsOf(plan: TracePlan): Chain[] {
  const byTool = new Map<string, Chain>();
  plan.turns.forEach((turn, t) => {
    for (const iv of turn.interventions) {
      let chain = byTool.get(iv.tool);
      if (!chain) byTool.set(iv.tool, (chain = { tool: iv.tool, steps: [] }));
      chain.steps.push({ turn: t, iv });
    }
  });
  const first = (c: Chain): number => c.steps[0]!.iv.firstChanged;
  return [...byTool.values()].sort((a, b) => first(b) - first(a) || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

/**
 * Evaluate every sequence of a plan, one pass per intervention over the whole record: turn t's sequence
 * is a prefix of turn t+1's (its context holds every earlier turn), so following one intervention (or
 * the base) from turn to turn on the same runner decodes each token once — only where a turn's own
 * frozen call is removed in later turns does the next sequence diverge, and it is decoded from there.
 * The base goes first, on the first runner, turn after turn. Then the interventions: on one runner one
 * after another (descending first change, so each truncation keeps the next one's prefix); on several
 * (the fast read) the other runners take whole chains from a queue, each first taking the base's prefix
 * over from the first runner's KV cells (shared, not evaluated again), ; the chains' changed tails take
 * turns in the decode, one sequence a batch (llama/batching.ts). Naive mode evaluates every sequence from scratch.
 * Evaluating turn by turn instead (base, then every intervention, then the next turn) decodes each
 * intervention's context again at every turn: quadratic in the number of turns.
 */
export async function evaluatePlan(
  plan: TracePlan,
  runners: SequenceRunner | readonly SequenceRunner[],
  mode: EvaluationMode,
  onProgress?: (progress: PlanProgress) => void,
): Promise<TurnLogprobs[]> {
  const all: readonly SequenceRunner[] = Array.isArray(runners) ? runners : [runners as SequenceRunner];
  const first = all[0]!;
  const lanes = mode === 'naive' ? [] : all.slice(1);
  const size = planSize(plan);
  const progress: PlanProgress = { sequencesDone: 0, sequences: size.sequences, scoredTokensDone: 0, scoredTokens: size.scoredTokens };
  const done = (s: ScoringSequence): void => {
    progress.sequencesDone++;
    progress.scoredTokensDone += s.end - s.start;
    onProgress?.({ ...progress });
  };
  const label = (turn: number): string => `trace "${plan.trace.id}" turn ${turn}`;
  const base: number[][] = [];
  for (const turn of plan.turns) {
    base.push(await first.logprobs(turn.base, mode, label(turn.turn)));
    done(turn.base);
  }
  const removed = plan.turns.map(() => new Map<string, number[]>());
  const chains = chainsOf(plan);
  const runChain = async (runner: SequenceRunner, chain: Chain): Promise<void> => {
    for (const { turn, iv } of chain.steps) {
      if (runner !== first) await runner.shareFrom(first, iv.sequence);
      removed[turn]!.set(iv.tool, await runner.logprobs(iv.sequence, mode, `${label(plan.turns[turn]!.turn)} without ${iv.tool}`));
      done(iv.sequence);
    }
  };
  if (lanes.length === 0) {
    for (const chain of chains) await runChain(first, chain);
  } else {
    let next = 0;
    await Promise.all(
      lanes.map(async (runner) => {
        while (next < chains.length) await runChain(runner, chains[next++]!);
      }),
    );
  }
  // Each turn's map in the plan's order of that turn's interventions (what the records list).
  return plan.turns.map((turn, t) => ({
    turn: turn.turn,
    base: base[t]!,
    removed: new Map(turn.interventions.map((iv) => [iv.tool, removed[t]!.get(iv.tool)!] as const)),
  }));
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
    ...(plan.unscoredInterventions && plan.unscoredInterventions.length > 0 ? { unscoredInterventions: plan.unscoredInterventions } : {}),
    createdAt: new Date().toISOString(),
  };
}
