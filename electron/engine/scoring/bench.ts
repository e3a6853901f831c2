// `lots bench scoring`: the naive and the optimized scoring paths on the same generated traces,
// with what each costs and how far apart their scores are. Tokens evaluated are compared with the
// prefix-tree minimum (every distinct prefix decoded once), wall time with the naive path, and the
// per-scored-token price of `confidence` and full `probabilities` is measured directly.
import type { LlamaModel, Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { ensureFixtureModel } from '../gguf/fixture-cache';
import { createScoringContext, loadModel } from '../llama/load';
import type { GpuChoice } from '../llama/runtime';
import { withGreedyAnswers } from './greedy-answer';
import { planTrace } from './plan';
import { TokenTrie } from './prefix-tree';
import { createRenderer, type TraceRenderer } from './renderer';
import { scoreTraces } from './scorer';
import { SequenceRunner, type EvaluationMode, type EvaluationStats } from './sequence-runner';
import { singleStepTraces } from './synthetic-traces';
import { meanLogprob, type TurnLogprobs } from './trace-scores';

export interface ScoringBenchOptions {
  model?: string;
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
  onProgress?: (message: string) => void;
}

export interface PathResult {
  seconds: number;
  stats: EvaluationStats;
}

export interface ScoringBenchReport {
  model: string;
  vocabulary: number;
  traces: number;
  tools: number;
  answers: 'greedy' | 'recorded';
  parallel: number;
  contextSize: number;
  scoredTokens: number;
  tokens: { naive: number; optimized: number; prefixTreeMinimum: number };
  naive?: PathResult;
  optimized: PathResult;
  speedup?: number;
  scoreDiff?: { mean: number; max: number; count: number };
  tokenLogprobDiff?: { max: number };
  perScoredToken: { confidenceMs: number; probabilitiesMs: number; decodeMs: number };
  /** The same full contexts evaluated naively in batches of 512 and of 7 tokens: how much the backend's
   * logits move with the batch shape alone (the floor under any naive/optimized comparison). */
  noiseFloor: { tokenLogprob: number; meanLogprob: number; sequences: number };
}

export async function runScoringBench(options: ScoringBenchOptions): Promise<ScoringBenchReport> {
  const say = options.onProgress ?? (() => undefined);
  const modelPath = options.model ?? ensureFixtureModel(options.cacheDir, { kind: 'random', ...(options.vocab === 'large' ? { vocabularySize: 151_936 } : {}) });
  say(`loading ${modelPath}`);
  const { model } = await loadModel(modelPath, { gpu: options.gpu });
  try {
    const renderer = createRenderer(model);
    const answers = options.answers ?? 'greedy';
    say(`generating ${options.traces} single-step traces with ${options.tools} tools and ${answers} answers`);
    const generated = singleStepTraces({ count: options.traces, tools: options.tools, seed: 11, task: 'bench' });
    const traces = answers === 'greedy' ? await withGreedyAnswers(model, renderer, generated) : generated;
    const planOptions = { intervention: 'line' as const, span: 'answer' as const };

    const trie = new TokenTrie();
    let naiveTokens = 0;
    let scoredTokens = 0;
    for (const trace of traces) {
      const plan = await planTrace(trace, renderer, planOptions);
      for (const turn of plan.turns) {
        for (const s of [turn.base, ...turn.interventions.map((i) => i.sequence)]) {
          trie.add(s.tokens, s.end - 1);
          naiveTokens += s.end - 1;
          scoredTokens += s.end - s.start;
        }
      }
    }

    const run = async (mode: EvaluationMode): Promise<{ result: PathResult; logprobs: Map<string, TurnLogprobs[]>; contextSize: number; parallel: number }> => {
      say(`scoring with the ${mode} path`);
      const logprobs = new Map<string, TurnLogprobs[]>();
      const started = performance.now();
      const summary = await scoreTraces(model, renderer, traces, { ...planOptions, mode, parallel: options.parallel, exactKvCache: options.exactKvCache }, (r) => {
        logprobs.set(r.plan.trace.id, r.logprobs);
      });
      return { result: { seconds: (performance.now() - started) / 1000, stats: summary.stats }, logprobs, contextSize: summary.contextSize, parallel: summary.parallel };
    };
    const optimized = await run('optimized');
    const naive = options.skipNaive ? undefined : await run('naive');

    say('measuring the per-scored-token cost and the noise floor');
    const perScoredToken = await measurePerTokenCost(model, renderer, traces[0]!);
    const noiseFloor = await measureNoiseFloor(model, renderer, traces.slice(0, 4));
    const report: ScoringBenchReport = {
      model: modelPath,
      vocabulary: (model.fileInfo.metadata.tokenizer as { ggml?: { tokens?: readonly string[] } } | undefined)?.ggml?.tokens?.length ?? 0,
      traces: traces.length,
      tools: options.tools,
      answers,
      parallel: optimized.parallel,
      contextSize: optimized.contextSize,
      scoredTokens,
      tokens: { naive: naiveTokens, optimized: optimized.result.stats.tokensEvaluated, prefixTreeMinimum: trie.size },
      optimized: optimized.result,
      perScoredToken,
      noiseFloor,
    };
    if (naive) {
      report.naive = naive.result;
      report.speedup = naive.result.seconds / optimized.result.seconds;
      Object.assign(report, compareScores(naive.logprobs, optimized.logprobs));
    }
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
  const sequences = (await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'line', span: 'answer' })))).flatMap((p) => p.turns.map((t) => t.base));
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

/** Time one full-context evaluation with no outputs, with `confidence`, and with `probabilities` at the
 * answer positions; the differences per scored position are the per-token overheads. */
async function measurePerTokenCost(model: LlamaModel, renderer: TraceRenderer, trace: Trace): Promise<ScoringBenchReport['perScoredToken']> {
  const tokens = renderer.render(trace, 0, trace.turns[0]!.answer);
  const contextOnly = renderer.render(trace, 0, '');
  let start = 0;
  while (start < contextOnly.length && tokens[start] === contextOnly[start]) start++;
  const positions = Math.max(1, tokens.length - 1 - (start - 1));
  const context = await createScoringContext(model, { contextSize: Math.ceil((tokens.length + 64) / 256) * 256, sequences: 1 });
  const sequence = context.getSequence();
  const time = async (output: 'none' | 'confidence' | 'probabilities'): Promise<number> => {
    let best = Infinity;
    for (let rep = 0; rep < 3; rep++) {
      await sequence.clearHistory();
      const items = tokens.slice(0, -1).map((t: Token, pos) =>
        output === 'none' || pos < start - 1 ? t : ([t, { generateNext: output === 'confidence' ? { token: true, confidence: true } : { probabilities: true } }] as [Token, object]),
      );
      const t0 = performance.now();
      await sequence.controlledEvaluate(items as never);
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  try {
    const none = await time('none');
    const confidence = await time('confidence');
    const probabilities = await time('probabilities');
    return {
      decodeMs: none / tokens.length,
      confidenceMs: Math.max(0, confidence - none) / positions,
      probabilitiesMs: Math.max(0, probabilities - none) / positions,
    };
  } finally {
    await context.dispose();
  }
}
