// The faithfulness check on a model: for each scored request, the frozen answer's likelihood with the
// full context, without the ranking's top-K tools together, and without K random scoreable tools
// (shared/lots/faithfulness.ts picks the sets). The joint removals go through the optimized scorer as
// ordinary plans (identical sets are evaluated once), so the check costs about one scoring pass with
// (1 + draws) removals per K instead of one per tool.
import type { LlamaModel } from 'node-llama-cpp';
import { faithfulnessRng, faithfulnessSets, requestFaithfulness, type RequestFaithfulness, type TurnFaithfulness } from '../../../shared/lots/faithfulness';
import type { ScoreSpan, StoredScore } from '../../../shared/project/scores';
import {
  applyJointIntervention,
  exposedTools,
  removeToolsByReexecution,
  scoreableTools,
  type InterventionKind,
  type JointInterventionResult,
  type ReexecuteExecutor,
} from '../../../shared/trace/interventions';
import type { Trace } from '../../../shared/trace/schema';
import type { InterventionPlan, TracePlan, TurnPlan } from './plan';
import type { TraceRenderer } from './chat-template';
import { scoreTraces, type ScoreTracesOptions, type ScoreTracesSummary } from './scorer';
import { commonPrefixLength, locateScoredTokens } from './span';
import { meanLogprob } from './trace-scores';
import { ExpectedError } from '../../../shared/api/errors';

export interface FaithfulnessInput {
  /** The requests to check; each needs its stored row in `rows`. */
  traces: readonly Trace[];
  rows: ReadonlyMap<string, StoredScore>;
  /** The task ranking (best first) of each trace's task. */
  rankingOf: (trace: Trace) => readonly string[];
  ks: readonly number[];
  draws: number;
  seed: number;
  intervention: InterventionKind;
  span: ScoreSpan;
  executor?: ReexecuteExecutor;
}

export type FaithfulnessRunOptions = Partial<Pick<ScoreTracesOptions, 'mode'>> &
  Pick<ScoreTracesOptions, 'parallel' | 'contextSize' | 'batchSize' | 'threads' | 'exactKvCache' | 'shouldStop'>;

export interface CheckedRequest {
  trace: Trace;
  /** One entry per K the request could measure. */
  results: RequestFaithfulness[];
  /** Largest |L(y|h) recomputed − L(y|h) stored| over its turns (NaN when the row kept no turn detail). */
  baseDrift: number;
  tokensEvaluated: number;
}

interface TurnSets {
  turn: number;
  byK: Array<{ k: number; top: string; topTools: string[]; random: string[] }>;
}

export async function checkFaithfulness(
  model: LlamaModel,
  renderer: TraceRenderer,
  input: FaithfulnessInput,
  options: FaithfulnessRunOptions,
  onRequest: (request: CheckedRequest) => void | Promise<void>,
): Promise<ScoreTracesSummary> {
  const setsByTrace = new Map<string, TurnSets[]>();
  const plan = async (trace: Trace): Promise<TracePlan> => {
    const turns: TurnPlan[] = [];
    const sets: TurnSets[] = [];
    const ranking = input.rankingOf(trace);
    for (let t = 0; t < trace.turns.length; t++) {
      const base = locateScoredTokens(renderer, trace, t, input.span);
      if (!base) continue;
      const scoreable = scoreableTools(trace, t, input.intervention === 'line' ? 'line' : 'evidence');
      const removals = new Map<string, string[]>();
      const label = (tools: readonly string[]): string => {
        const sorted = [...tools].sort();
        const key = sorted.join(' + ');
        removals.set(key, sorted);
        return key;
      };
      const byK: TurnSets['byK'] = [];
      for (const k of input.ks) {
        const chosen = faithfulnessSets(ranking, scoreable, k, input.draws, faithfulnessRng(input.seed, trace.id, t, k));
        if (chosen) byK.push({ k, top: label(chosen.top), topTools: chosen.top, random: chosen.random.map(label) });
      }
      if (byK.length === 0) continue;
      const interventions: InterventionPlan[] = [];
      for (const [key, tools] of removals) {
        const removed = await jointRemoval(trace, t, tools, input);
        const sequence = locateScoredTokens(renderer, removed.trace, t, input.span);
        if (sequence)
          interventions.push({ tool: key, sequence, sharedWith: removed.sharedWith, firstChanged: commonPrefixLength(base.tokens, sequence.tokens) });
      }
      interventions.sort((a, b) => b.firstChanged - a.firstChanged || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
      turns.push({ turn: t, base, interventions });
      sets.push({ turn: t, byK });
    }
    setsByTrace.set(trace.id, sets);
    return { trace, exposed: exposedTools(trace), turns };
  };

  return scoreTraces(
    model,
    renderer,
    input.traces,
    { ...options, mode: options.mode ?? 'optimized', intervention: input.intervention, span: input.span, plan },
    async (result) => {
      const trace = result.plan.trace;
      const sets = setsByTrace.get(trace.id) ?? [];
      setsByTrace.delete(trace.id);
      const row = input.rows.get(trace.id);
      const measured: TurnFaithfulness[] = [];
      let baseDrift = 0;
      result.logprobs.forEach((lp, i) => {
        const turnSets = sets[i]!;
        const base = meanLogprob(lp.base);
        const drop = (key: string): number | undefined => {
          const values = lp.removed.get(key);
          return values ? base - meanLogprob(values) : undefined;
        };
        const stored = row?.turns?.find((d) => d.turn === lp.turn);
        baseDrift = stored ? Math.max(baseDrift, Math.abs(stored.base - base)) : Number.NaN;
        const single = (tool: string): number => {
          const removed = stored?.removed[tool];
          return stored && removed !== undefined ? stored.base - removed : (row?.scores[tool] ?? 0);
        };
        for (const s of turnSets.byK) {
          const joint = drop(s.top);
          const random = s.random.map(drop).filter((d): d is number => d !== undefined);
          if (joint === undefined || random.length === 0) continue;
          measured.push({ k: s.k, joint, additive: s.topTools.reduce((sum, tool) => sum + single(tool), 0), random });
        }
      });
      await onRequest({ trace, results: requestFaithfulness(trace.id, measured), baseDrift, tokensEvaluated: result.stats.tokensEvaluated });
    },
  );
}

async function jointRemoval(trace: Trace, turn: number, tools: readonly string[], input: FaithfulnessInput): Promise<JointInterventionResult> {
  if (input.intervention !== 'reexecute') return applyJointIntervention(trace, turn, tools, input.intervention);
  if (!input.executor) {
    throw new ExpectedError('INVALID_INPUT', 'the re-execute intervention needs an executor for the tools (available for the built-in benchmark)');
  }
  return removeToolsByReexecution(trace, turn, tools, input.executor);
}
