// Score many traces with one model: one llama.cpp context with several sequences, one trace per
// sequence at a time; the sequences take turns in the decode, one a batch (llama/batching.ts). Each
// finished trace is handed to `onTrace` at once (the job appends it to the project), so an interruption
// loses at most the traces in flight.
import type { LlamaModel } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';

import { createScoringContext } from '../llama/load';
import { backendOf, runtimeReadPath } from '../llama/runtime';
import { planLength, planTrace, type PlanOptions, type TracePlan } from './plan';
import type { TraceRenderer } from './chat-template';
import {
  addStats,
  diffStats,
  emptyStats,
  hasFastRead,
  SequenceRunner,
  type EvaluationMode,
  type EvaluationStats,
  type OutputPath,
  type ScoringRead,
} from './sequence-runner';
import { locateScoredTokens } from './span';
import { evaluatePlan, type PlanProgress, type TurnLogprobs } from './trace-scores';
import { ExpectedError } from '../../../shared/api/errors';

export interface ScoreTracesOptions extends PlanOptions {
  mode: EvaluationMode;
  /** Parallel sequences (traces in flight), default 1. Measured (CPU and an H200 over Vulkan): one
   * sequence is as fast — reading probabilities at the scored positions dominates, and every
   * batch holds one sequence (see llama/batching.ts) — and keeps every shared prefix in one cache, while
   * each extra sequence evaluates the common prefix (system prompt, menu) again. Raise it for large
   * models whose decode, not sampling, is the bottleneck. */
  parallel?: number;
  /** Sequences per trace in flight with the fast read: the interventions of one trace are scored on
   * that many sequences at once, each starting from the base's KV cells (shared, not re-evaluated); their
   * changed tails take turns in the decode, one sequence a batch (they decoded side by side in large
   * batches until mixed batches were found to corrupt log-probs: llama/batching.ts). Default 8; 1 without
   * the fast read. */
  lanes?: number;
  /** How the optimized mode reads scored tokens: 'auto' (default) takes the fast read where it exists. */
  read?: ScoringRead;
  /** Tokens per sequence; default: fitted to the longest trace. */
  contextSize?: number;
  batchSize?: number;
  threads?: number;
  exactKvCache?: boolean;
  /** Checked between traces: stop taking new ones (pause / cancel). */
  shouldStop?: () => boolean;
  /** What to evaluate for a trace; default planTrace (one removal per scoreable tool). The
   * faithfulness check plans joint removals and reuses everything else. */
  plan?: (trace: Trace) => Promise<TracePlan>;
  /** Progress inside a trace: called after each of its sequences (a base or an intervention at one turn). */
  onSequence?: (trace: Trace, progress: PlanProgress) => void;
}

export interface TraceResult {
  plan: TracePlan;
  logprobs: TurnLogprobs[];
  stats: EvaluationStats;
  seconds: number;
}

export interface ScoreTracesSummary {
  stats: EvaluationStats;
  contextSize: number;
  parallel: number;
  /** Sequences per trace (1 unless the fast read batches interventions). */
  lanes: number;
  /** How scored tokens were read. */
  outputPath: OutputPath;
  scored: number;
  stopped: boolean;
}

const DEFAULT_LANES = 8;

function laneStats(runners: readonly SequenceRunner[]): EvaluationStats {
  const total = emptyStats();
  for (const r of runners) addStats(total, r.stats);
  return total;
}

/** Whether this model's runtime has the fast read (checked once per runtime on a tiny context). */
const fastReadByRuntime = new WeakMap<object, Promise<boolean>>();
export function modelHasFastRead(model: LlamaModel): Promise<boolean> {
  let known = fastReadByRuntime.get(model.llama);
  if (!known) {
    known = (async () => {
      const context = await createScoringContext(model, { contextSize: 256, sequences: 1 });
      try {
        return hasFastRead(context);
      } finally {
        await context.dispose();
      }
    })();
    fastReadByRuntime.set(model.llama, known);
  }
  return known;
}

/** The llama.cpp backend a model runs on, in words ('CPU', 'CUDA', 'Vulkan', 'Metal'). */
export function backendName(model: LlamaModel): string {
  return backendOf(model.llama.gpu);
}

/** Which path the optimized mode reads scored tokens with on this model, and why (said by `lots bench
 * scoring` and `lots score`). */
export async function readPath(model: LlamaModel, read: ScoringRead = 'auto'): Promise<{ path: OutputPath; why: string }> {
  if (read === 'confidence') return { path: 'confidence', why: `asked for (--read confidence) on the ${backendName(model)} backend` };
  return runtimeReadPath(model.llama);
}

export async function scoreTraces(
  model: LlamaModel,
  renderer: TraceRenderer,
  traces: readonly Trace[],
  options: ScoreTracesOptions,
  onTrace: (result: TraceResult) => void | Promise<void>,
): Promise<ScoreTracesSummary> {
  const parallel = Math.max(1, Math.min(options.parallel ?? 1, traces.length));
  const contextSize = options.contextSize ?? fitContextSize(model, renderer, traces, options);
  const stats = emptyStats();
  const fast = options.mode === 'optimized' && options.read !== 'confidence' && (await modelHasFastRead(model));
  const outputPath: OutputPath = options.mode === 'naive' ? 'full distribution' : fast ? 'fast read' : 'confidence';
  const lanes = fast ? Math.max(1, Math.floor(options.lanes ?? DEFAULT_LANES)) : 1;
  if (traces.length === 0) return { stats, contextSize, parallel: 0, lanes, outputPath, scored: 0, stopped: false };
  const context = await createScoringContext(model, {
    contextSize,
    sequences: parallel * lanes,
    batchSize: options.batchSize,
    threads: options.threads,
    exactKvCache: options.exactKvCache,
  });
  let next = 0;
  let scored = 0;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    const runners = Array.from({ length: lanes }, () => new SequenceRunner(context.getSequence(), { read: fast ? 'auto' : 'confidence' }));
    const runner = runners[0]!;
    try {
      while (next < traces.length && !failure) {
        if (options.shouldStop?.()) {
          stopped = true;
          return;
        }
        const trace = traces[next++]!;
        const started = performance.now();
        const before = laneStats(runners);
        const plan = options.plan ? await options.plan(trace) : await planTrace(trace, renderer, options);
        const needed = planLength(plan);
        if (needed > runner.sequence.contextSize) {
          throw new ExpectedError(
            'CONTEXT_OVERFLOW',
            `trace "${trace.id}" needs ${needed} tokens but the scoring context holds ${runner.sequence.contextSize}; raise the context size or shorten the trace.`,
          );
        }
        const logprobs = await evaluatePlan(plan, runners, options.mode, options.onSequence ? (p) => options.onSequence!(trace, p) : undefined);
        scored++;
        await onTrace({ plan, logprobs, stats: diffStats(laneStats(runners), before), seconds: (performance.now() - started) / 1000 });
      }
    } catch (error) {
      // The first failure stops the other sequences after their current trace (their results are
      // delivered); the context is disposed only once every sequence is idle.
      failure ??= { error };
    } finally {
      addStats(stats, laneStats(runners));
      for (const r of runners) await r.sequence.dispose();
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await context.dispose();
  }
  if (failure) throw failure.error;
  return { stats, contextSize, parallel, lanes, outputPath, scored, stopped };
}

/**
 * A context size with room for the longest full-context sequence (interventions only remove text;
 * a re-executed chain may add an error message, hence the margin). A trace longer than the model's
 * trained context is an error that names it.
 */
export function fitContextSize(model: LlamaModel, renderer: TraceRenderer, traces: Iterable<Trace>, options: Pick<PlanOptions, 'span'>): number {
  let longest = 0;
  let longestId = '';
  for (const trace of traces) {
    for (let t = 0; t < trace.turns.length; t++) {
      const s = locateScoredTokens(renderer, trace, t, options.span);
      if (s && s.end > longest) {
        longest = s.end;
        longestId = trace.id;
      }
    }
  }
  const limit = model.trainContextSize;
  if (longest > limit) {
    throw new ExpectedError(
      'CONTEXT_OVERFLOW',
      `trace "${longestId}" needs ${longest} tokens, more than the model's context length (${limit}); use a model with a longer context or shorten the trace.`,
    );
  }
  const wanted = Math.ceil((longest + 64) * 1.1);
  return Math.min(limit, Math.max(256, Math.ceil(wanted / 256) * 256));
}
