// `lots bench scoring`: the naive and the optimized scoring paths on the same generated traces,
// with what each costs and how far apart their scores are. Tokens evaluated are compared with the
// prefix-tree minimum (every distinct prefix decoded once), wall time with the naive path, and the
// per-scored-token price of `confidence` and full `probabilities` is measured directly. The optimized
// path's throughput (tokens evaluated per second) is set against llama.cpp's raw prompt evaluation of
// the traces' full contexts on a context of the same shape: the physical limit on this machine.
import type { LlamaModel } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { ensureFixtureModel } from '../gguf/fixture-cache';
import { createScoringContext, loadModel } from '../llama/load';
import type { GpuChoice } from '../llama/runtime';
import { withGreedyAnswers } from './greedy-answer';
import { planSequences, planTrace, prefixTreeMinimum, type TracePlan } from './plan';
import { ProjectStore } from '../store/project-store';
import { hasTarget } from '../../../shared/trace/target';
import { ExpectedError } from '../../../shared/api/errors';
import { createRenderer, type TraceRenderer } from './chat-template';
import { backendName, readPath, scoreTraces } from './scorer';
import { SequenceRunner, type EvaluationMode, type EvaluationStats, type OutputPath, type ScoringRead } from './sequence-runner';
import { singleStepTraces } from './synthetic-traces';
import { meanLogprob, type TurnLogprobs } from './trace-scores';
import { cpuSince, measurePerTokenCost, measurePositionMatchedRaw, measureRawThroughput, meterContexts, throughputReport } from './speed-meters';

export interface ScoringBenchOptions {
  model?: string;
  /** Score a project's recorded traces (real, multi-turn) instead of generated ones. */
  project?: string;
  /** With `project`: only these traces (default: every trace with an answer). */
  traceIds?: readonly string[];
  traces: number;
  tools: number;
  vocab: 'byte' | 'large';
  answers?: 'greedy' | 'recorded';
  parallel?: number;
  gpu: GpuChoice;
  /** Where generated fixture models are cached. */
  cacheDir: string;
  /** Skip the naive path (for quick runs on big models). */
  skipNaive?: boolean;
  exactKvCache?: boolean;
  /** 'confidence' measures the prebuilt binary's path even where the fast read is installed. */
  read?: ScoringRead;
  onProgress?: (message: string) => void;
}

export interface PathResult {
  seconds: number;
  /** CPU time of this process (all threads) over the same span: less sensitive than wall time to
   * other processes sharing the cores. */
  cpuSeconds: number;
  stats: EvaluationStats;
  /** How scored tokens were read. */
  outputPath: OutputPath;
  /** Sequences per trace (the fast read scores a trace's interventions side by side). */
  lanes: number;
  /** Where the wall time went (measured on llama.cpp's decode and sample calls; absent if the
   * node-llama-cpp internals it hooks are missing). */
  time?: TimeSplit;
}

/** Wall time inside llama.cpp's calls on a context (they never overlap: node-llama-cpp reads a
 * batch's outputs before it decodes the next batch). */
export interface TimeSplit {
  /** In llama_decode: the forward pass, output rows (logits) included. */
  decodeSeconds: number;
  /** Reading outputs: node-llama-cpp's sampleToken (greedy token + confidence, top-K, full distribution)
   * or the fast read's one pass over the logits. */
  outputSeconds: number;
  /** The rest: planning and tokenizing, KV truncation, batch scheduling, JS. */
  otherSeconds: number;
  decodes: number;
  /** Tokens per decode call on average (small batches decode slower per token on CPU). */
  meanBatchTokens: number;
  outputs: number;
}

export interface ThroughputReport {
  /** llama.cpp prompt evaluation of every trace's full contexts (the scored sequences with every
   * tool present), each from an empty sequence, no outputs: same context size, parallel sequences
   * and batch size as the optimized path. */
  raw: { tokens: number; sequences: number; seconds: number; tokensPerSecond: number; cpuSeconds: number; time?: TimeSplit };
  optimized: { tokens: number; seconds: number; tokensPerSecond: number; cpuSeconds: number };
  /** optimized.tokensPerSecond / raw.tokensPerSecond. */
  ratio: number;
  /** Raw evaluation of the prefix-tree minimum's tokens at the positions the optimized path decodes them
   * (speed-meters.ts, measurePositionMatchedRaw), and optimized.tokensPerSecond over its rate. */
  positionMatched?: {
    tokens: number;
    stretches: number;
    seconds: number;
    tokensPerSecond: number;
    cpuSeconds: number;
    meanPosition: number;
    rawMeanPosition: number;
    ratio: number;
  };
  /** The same ratio on CPU time (tokens per CPU second): what is left once other processes' share of
   * the cores is taken out. */
  cpuRatio: number;
  contextSize: number;
  parallel: number;
  batchSize: number;
}

export interface ScoringBenchReport {
  model: string;
  vocabulary: number;
  /** Where the traces came from: generated single-step traces, or a project's recorded ones. */
  source: { kind: 'generated' } | { kind: 'project'; project: string; intervention: 'evidence' };
  traces: number;
  /** Scored turns over all traces (1 per single-step trace). */
  turns: number;
  /** Turns with nothing to score (e.g. an empty greedy answer) and interventions that gave no score
   * (their reasons are in the plans: shared/project/scores.ts). */
  unscored: { turns: number; interventions: number };
  /** Per trace: its scored turns, sequences, tokens decoded in the plan's order (re-evaluations of the
   * confidence path apart), its own prefix-tree minimum and wall time. */
  perTrace: Array<{ id: string; turns: number; sequences: number; tokens: number; repairTokens: number; minimum: number; seconds: number }>;
  tools: number;
  answers: 'greedy' | 'recorded';
  parallel: number;
  contextSize: number;
  scoredTokens: number;
  /** optimized: every token decoded; planOrder: without the confidence path's re-evaluations (what the
   * evaluation order decodes, set against the prefix-tree minimum: docs/scoring-speed.md, "The minimum"). */
  tokens: { naive: number; optimized: number; planOrder: number; prefixTreeMinimum: number };
  naive?: PathResult;
  optimized: PathResult;
  speedup?: number;
  scoreDiff?: { mean: number; max: number; count: number };
  tokenLogprobDiff?: { max: number };
  perScoredToken: { confidenceMs: number; probabilitiesMs: number; decodeMs: number; fastReadMs?: number };
  /** The figures the scoring-speed issue is judged by, in one place (`--json` prints the whole report). */
  /** Why the optimized path read with what it did (the binding in use, the backend, --read). */
  readPath: { path: OutputPath; why: string; backend: string };
  summary: {
    outputPath: OutputPath;
    /** Output reading's share of the optimized run's wall time (absent where the calls cannot be timed). */
    outputShare?: number;
    tokensPerBatch?: number;
    optimizedOverRaw: number;
    /** optimized over raw evaluation of the same tokens at the same positions (throughput.positionMatched). */
    optimizedOverPositionMatched?: number;
    scoreDiffMax?: number;
    noiseFloorL: number;
  };
  /** The same full contexts evaluated naively in batches of 512 and of 7 tokens: how much the backend's
   * logits move with the batch shape alone (the floor under any naive/optimized comparison). */
  noiseFloor: { tokenLogprob: number; meanLogprob: number; sequences: number };
  throughput: ThroughputReport;
}

export async function runScoringBench(options: ScoringBenchOptions): Promise<ScoringBenchReport> {
  const say = options.onProgress ?? (() => undefined);
  const modelPath =
    options.model ?? ensureFixtureModel(options.cacheDir, { kind: 'random', ...(options.vocab === 'large' ? { vocabularySize: 151_936 } : {}) });
  say(`loading ${modelPath}`);
  const { model } = await loadModel(modelPath, { gpu: options.gpu });
  try {
    const renderer = createRenderer(model);
    const path = await readPath(model, options.read);
    say(`reading scored tokens with the ${path.path}: ${path.why}`);
    const fromProject = options.project !== undefined;
    const answers = fromProject ? 'recorded' : (options.answers ?? 'greedy');
    let traces: Trace[];
    if (options.project !== undefined) {
      traces = projectTraces(options.project, options.traceIds);
      say(`scoring ${traces.length} recorded traces of ${options.project}`);
    } else {
      say(`generating ${options.traces} single-step traces with ${options.tools} tools and ${answers} answers`);
      const generated = singleStepTraces({ count: options.traces, tools: options.tools, seed: 11, task: 'bench' });
      traces = answers === 'greedy' ? await withGreedyAnswers(model, renderer, generated) : generated;
      const empty = traces.filter((t) => t.turns.every((turn) => !turn.answer)).length;
      if (empty > 0) say(`${empty} of ${traces.length} traces got an empty greedy answer (the model ended at once): not scored, and counted as such`);
    }
    // Recorded traces carry calls and observations: their interventions remove a tool's evidence.
    const planOptions = { intervention: fromProject ? ('evidence' as const) : ('line' as const), span: 'answer' as const };

    const plans = new Map<string, TracePlan>();
    let naiveTokens = 0;
    let scoredTokens = 0;
    let turns = 0;
    let unscoredTurns = 0;
    let unscoredInterventions = 0;
    for (const trace of traces) {
      const plan = await planTrace(trace, renderer, planOptions);
      plans.set(trace.id, plan);
      turns += plan.turns.length;
      unscoredTurns += plan.unscored?.length ?? 0;
      unscoredInterventions += plan.unscoredInterventions?.length ?? 0;
      for (const s of planSequences(plan)) {
        naiveTokens += s.end - 1;
        scoredTokens += s.end - s.start;
      }
    }
    const perTrace: ScoringBenchReport['perTrace'] = [];

    const run = async (
      mode: EvaluationMode,
    ): Promise<{ result: PathResult; logprobs: Map<string, TurnLogprobs[]>; contextSize: number; parallel: number; lanes: number; batchSize: number }> => {
      say(`scoring with the ${mode} path`);
      const logprobs = new Map<string, TurnLogprobs[]>();
      const meter = meterContexts(model);
      const started = performance.now();
      const cpu = process.cpuUsage();
      try {
        const summary = await scoreTraces(
          model,
          renderer,
          traces,
          { ...planOptions, mode, parallel: options.parallel, exactKvCache: options.exactKvCache, ...(options.read ? { read: options.read } : {}) },
          (r) => {
            logprobs.set(r.plan.trace.id, r.logprobs);
            if (mode === 'optimized') {
              const st = r.stats;
              perTrace.push({
                id: r.plan.trace.id,
                turns: r.plan.turns.length,
                sequences: planSequences(r.plan).length,
                tokens: st.tokensEvaluated - st.repairTokens,
                repairTokens: st.repairTokens,
                minimum: prefixTreeMinimum([r.plan]),
                seconds: r.seconds,
              });
            }
          },
        );
        const seconds = (performance.now() - started) / 1000;
        const cpuSeconds = cpuSince(cpu);
        const time = meter.split(seconds);
        return {
          result: { seconds, cpuSeconds, stats: summary.stats, outputPath: summary.outputPath, lanes: summary.lanes, ...(time ? { time } : {}) },
          logprobs,
          contextSize: summary.contextSize,
          parallel: summary.parallel,
          lanes: summary.lanes,
          batchSize: meter.batchSize(),
        };
      } finally {
        meter.restore();
      }
    };
    const optimized = await run('optimized');
    say('timing raw prompt evaluation of the full contexts');
    const raw = await measureRawThroughput(model, renderer, traces, {
      contextSize: optimized.contextSize,
      // The same context shape as the optimized path: as many sequences, the same batch size.
      parallel: optimized.parallel * optimized.lanes,
      batchSize: optimized.batchSize || undefined,
      exactKvCache: options.exactKvCache,
    });
    say('timing raw evaluation of the same tokens at the positions the optimized path decodes them');
    const matched = await measurePositionMatchedRaw(model, [...plans.values()], {
      contextSize: optimized.contextSize,
      parallel: optimized.parallel * optimized.lanes,
      batchSize: optimized.batchSize || undefined,
      exactKvCache: options.exactKvCache,
    });
    const naive = options.skipNaive ? undefined : await run('naive');

    say('measuring the per-scored-token cost and the noise floor');
    const perScoredToken = await measurePerTokenCost(model, renderer, traces[0]!);
    const noiseFloor = await measureNoiseFloor(model, renderer, traces.slice(0, 4));
    const report: ScoringBenchReport = {
      model: modelPath,
      vocabulary: (model.fileInfo.metadata.tokenizer as { ggml?: { tokens?: readonly string[] } } | undefined)?.ggml?.tokens?.length ?? 0,
      source: options.project !== undefined ? { kind: 'project', project: options.project, intervention: 'evidence' } : { kind: 'generated' },
      traces: traces.length,
      turns,
      unscored: { turns: unscoredTurns, interventions: unscoredInterventions },
      perTrace,
      readPath: { ...path, backend: backendName(model) },
      tools: fromProject ? Math.max(0, ...traces.map((t) => t.tools.length)) : options.tools,
      answers,
      parallel: optimized.parallel,
      contextSize: optimized.contextSize,
      scoredTokens,
      tokens: {
        naive: naiveTokens,
        optimized: optimized.result.stats.tokensEvaluated,
        planOrder: optimized.result.stats.tokensEvaluated - optimized.result.stats.repairTokens,
        prefixTreeMinimum: prefixTreeMinimum(plans.values()),
      },
      optimized: optimized.result,
      perScoredToken,
      noiseFloor,
      throughput: throughputReport(
        raw,
        optimized.result,
        optimized.contextSize,
        optimized.parallel * optimized.lanes,
        optimized.batchSize || raw.batchSize,
        matched,
      ),
      summary: { outputPath: optimized.result.outputPath, optimizedOverRaw: 0, noiseFloorL: noiseFloor.meanLogprob },
    };
    if (naive) {
      report.naive = naive.result;
      report.speedup = naive.result.seconds / optimized.result.seconds;
      Object.assign(report, compareScores(naive.logprobs, optimized.logprobs));
    }
    const t = optimized.result.time;
    report.summary = {
      outputPath: optimized.result.outputPath,
      ...(t ? { outputShare: t.outputSeconds / optimized.result.seconds, tokensPerBatch: t.meanBatchTokens } : {}),
      optimizedOverRaw: report.throughput.ratio,
      ...(report.throughput.positionMatched ? { optimizedOverPositionMatched: report.throughput.positionMatched.ratio } : {}),
      ...(report.scoreDiff ? { scoreDiffMax: report.scoreDiff.max } : {}),
      noiseFloorL: noiseFloor.meanLogprob,
    };
    return report;
  } finally {
    await model.dispose();
  }
}

/** |I_naive − I_optimized| over every (trace, tool), and the largest per-token log-prob difference. */
function compareScores(a: Map<string, TurnLogprobs[]>, b: Map<string, TurnLogprobs[]>): Pick<ScoringBenchReport, 'scoreDiff' | 'tokenLogprobDiff'> {
  let sum = 0;
  let max = 0;
  let count = 0;
  let tokenMax = 0;
  for (const [id, turnsA] of a) {
    const turnsB = b.get(id)!;
    turnsA.forEach((ta, i) => {
      const tb = turnsB[i]!;
      const baseA = meanLogprob(ta.base);
      const baseB = meanLogprob(tb.base);
      ta.base.forEach((v, j) => (tokenMax = Math.max(tokenMax, Math.abs(v - tb.base[j]!))));
      for (const [tool, la] of ta.removed) {
        const lb = tb.removed.get(tool)!;
        la.forEach((v, j) => (tokenMax = Math.max(tokenMax, Math.abs(v - lb[j]!))));
        const d = Math.abs(baseA - meanLogprob(la) - (baseB - meanLogprob(lb)));
        sum += d;
        max = Math.max(max, d);
        count++;
      }
    });
  }
  return { scoreDiff: { mean: count ? sum / count : 0, max, count }, tokenLogprobDiff: { max: tokenMax } };
}

async function measureNoiseFloor(model: LlamaModel, renderer: TraceRenderer, traces: readonly Trace[]): Promise<ScoringBenchReport['noiseFloor']> {
  const sequences = (await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'line', span: 'answer' })))).flatMap((p) =>
    // The last scored turn: a multi-turn record's whole transcript.
    p.turns.slice(-1).map((t) => t.base),
  );
  const contextSize = Math.ceil((Math.max(...sequences.map((s) => s.end)) + 64) / 256) * 256;
  const results: number[][][] = [];
  for (const batchSize of [512, 7]) {
    const context = await createScoringContext(model, { contextSize, sequences: 1, batchSize });
    try {
      const runner = new SequenceRunner(context.getSequence());
      const out: number[][] = [];
      for (const s of sequences) out.push(await runner.logprobs(s, 'naive', 'noise floor'));
      results.push(out);
    } finally {
      await context.dispose();
    }
  }
  let token = 0;
  let mean = 0;
  results[0]!.forEach((a, i) => {
    const b = results[1]![i]!;
    a.forEach((v, j) => (token = Math.max(token, Math.abs(v - b[j]!))));
    mean = Math.max(mean, Math.abs(meanLogprob(a) - meanLogprob(b)));
  });
  return { tokenLogprob: token, meanLogprob: mean, sequences: sequences.length };
}

/** A project's traces for the bench: the ones asked for (each must exist), else every trace with an answer. */
export function projectTraces(project: string, ids: readonly string[] | undefined): Trace[] {
  const store = ProjectStore.open(project);
  if (ids && ids.length > 0) {
    const missing = ids.filter((id) => !store.getTrace(id));
    if (missing.length > 0) {
      const known = [...store.traceInfos()].map((t) => t.id);
      throw new ExpectedError(
        'NOT_FOUND',
        `no trace ${missing.map((m) => `"${m}"`).join(', ')} in ${project}; its traces: ${known.slice(0, 10).join(', ')}${known.length > 10 ? `, … (${known.length})` : ''}`,
      );
    }
    return ids.map((id) => store.getTrace(id)!);
  }
  const traces = store.listTraces().filter((t) => t.turns.some(hasTarget));
  if (traces.length === 0) throw new ExpectedError('NOT_FOUND', `${project} has no trace with an answer to score; import or serve some first`);
  return traces;
}
