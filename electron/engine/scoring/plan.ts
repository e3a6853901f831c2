// What to evaluate for one trace: per scoreable turn, the full context h and one context h^{-s} per
// scoreable tool s (shared/trace/interventions.ts), each rendered and with its frozen tokens located.
import type { ScoreSpan, UnscoredIntervention, UnscoredTurn } from '../../../shared/project/scores';
import {
  applyIntervention,
  exposedTools,
  removeByReexecution,
  scoreableTools,
  type InterventionKind,
  type InterventionResult,
  type ReexecuteExecutor,
} from '../../../shared/trace/interventions';
import type { Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import type { TraceRenderer } from './chat-template';
import { commonPrefixLength, locateTarget, type ScoringSequence } from './span';
import { TokenTrie } from './prefix-tree';
import { ExpectedError } from '../../../shared/api/errors';

export interface PlanOptions {
  intervention: InterventionKind;
  span: ScoreSpan;
  /** Needed for `reexecute` (the built-in benchmark provides one). */
  executor?: ReexecuteExecutor;
}

export interface InterventionPlan {
  tool: string;
  sequence: ScoringSequence;
  sharedWith: string[];
  /** First token where h^{-s} differs from h (the shared prefix stays in the KV cache). */
  firstChanged: number;
}

export interface TurnPlan {
  turn: number;
  base: ScoringSequence;
  /** In evaluation order: descending first changed token, so each truncation keeps the next one's prefix. */
  interventions: InterventionPlan[];
}

export interface TracePlan {
  trace: Trace;
  exposed: string[];
  turns: TurnPlan[];
  /** Turns with nothing to score, and why (they contribute nothing; the record keeps the count). */
  unscored?: UnscoredTurn[];
  /** Interventions of scored turns that give no score, and why (kept in the record, never dropped unseen). */
  unscoredInterventions?: UnscoredIntervention[];
}

export async function planTrace(trace: Trace, renderer: TraceRenderer, options: PlanOptions): Promise<TracePlan> {
  const turns: TurnPlan[] = [];
  const unscored: UnscoredTurn[] = [];
  const unscoredInterventions: UnscoredIntervention[] = [];
  for (let t = 0; t < trace.turns.length; t++) {
    const located = locateTarget(renderer, trace, t, options.span);
    if ('unscored' in located) {
      unscored.push({ turn: t, reason: located.unscored });
      continue;
    }
    const base = located.sequence;
    const tools = scoreableTools(trace, t, options.intervention === 'line' ? 'line' : 'evidence');
    const interventions: InterventionPlan[] = [];
    for (const tool of tools) {
      const removed = await intervene(trace, t, tool, options);
      if (removed.removed.length === 0) {
        unscoredInterventions.push({ turn: t, tool, reason: 'nothing-removed' });
        continue;
      }
      const located = locateTarget(renderer, removed.trace, t, options.span);
      if ('unscored' in located) {
        unscoredInterventions.push({ turn: t, tool, reason: located.unscored });
        continue;
      }
      const sequence = located.sequence;
      interventions.push({ tool, sequence, sharedWith: removed.sharedWith, firstChanged: commonPrefixLength(base.tokens, sequence.tokens) });
    }
    interventions.sort((a, b) => b.firstChanged - a.firstChanged || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
    turns.push({ turn: t, base, interventions });
  }
  return {
    trace,
    exposed: exposedTools(trace),
    turns,
    ...(unscored.length > 0 ? { unscored } : {}),
    ...(unscoredInterventions.length > 0 ? { unscoredInterventions } : {}),
  };
}

async function intervene(trace: Trace, turn: number, tool: string, options: PlanOptions): Promise<InterventionResult> {
  if (options.intervention !== 'reexecute') return applyIntervention(trace, turn, tool, options.intervention);
  if (!options.executor) {
    throw new ExpectedError(
      'INVALID_INPUT',
      'the re-execute intervention needs an executor for the tools (available for the built-in benchmark); use --intervention evidence or line',
    );
  }
  return removeByReexecution(trace, turn, tool, options.executor);
}

/** Longest sequence of the plan (tokens that must fit in one context sequence). */
export function planLength(plan: TracePlan): number {
  let n = 0;
  for (const t of plan.turns) {
    n = Math.max(n, t.base.end);
    for (const i of t.interventions) n = Math.max(n, i.sequence.end);
  }
  return n;
}

/** Every sequence of a plan: each turn's base and its interventions. */
export function planSequences(plan: TracePlan): ScoringSequence[] {
  return plan.turns.flatMap((t) => [t.base, ...t.interventions.map((i) => i.sequence)]);
}

/**
 * The fewest tokens any evaluation of these plans can decode (docs/scoring-speed.md, "The minimum"):
 * the nodes of the token trie of all their sequences, each up to its last scored token (which is
 * predicted, never decoded). A shared prefix counts once. For a multi-turn record this is one pass over
 * the base transcript plus, per intervention, one pass from its first change to the end of the record,
 * plus the stretch after each place where a turn's own frozen call is removed in later turns.
 */
export function prefixTreeMinimum(plans: Iterable<TracePlan>): number {
  const trie = new TokenTrie();
  for (const plan of plans) for (const s of planSequences(plan)) trie.add(s.tokens, s.end - 1);
  return trie.size;
}

/** The minimum as stretches: each sequence's tokens up to its last scored token, and where its new part
 * starts (after the longest prefix an earlier sequence of these plans shares with it). The new parts'
 * lengths sum to prefixTreeMinimum; each new token sits at the position the minimum decodes it at. */
export function minimumStretches(plans: Iterable<TracePlan>): { tokens: readonly Token[]; from: number }[] {
  const trie = new TokenTrie();
  const out: { tokens: readonly Token[]; from: number }[] = [];
  for (const plan of plans)
    for (const s of planSequences(plan)) {
      const tokens = s.tokens.slice(0, s.end - 1);
      const from = trie.add(tokens);
      if (from < tokens.length) out.push({ tokens, from });
    }
  return out;
}
