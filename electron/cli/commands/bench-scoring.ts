// `lots bench scoring`: naive vs optimized scoring on the same generated traces, in one run.
import { resolve } from 'node:path';
import { choice, flagInt, flagString, requireFlag } from '../args';
import { CliError, EXIT_OK, type Command } from '../command';
import { GPU_CHOICES } from '../../engine/llama';
import { runScoringBench, type ScoringBenchReport, type TimeSplit } from '../../engine/scoring/speed';
import { resolveModelArg } from '../../engine/models/model-arg';

export const command: Command = {
  name: 'bench scoring',
  summary: 'measure the scoring engine: naive vs optimized tokens, time and agreement',
  usage:
    'lots bench scoring [--model f.gguf] [--project P [--trace id]] [--traces n] [--tools m] [--vocab byte|large] [--answers greedy|recorded] [--parallel p] [--read auto|confidence] [--gpu g] [--json]',
  flags: {
    model: { type: 'string', description: 'a GGUF model, default (the pulled default model) or a pulled source (without it: a generated random-weight llama)' },
    project: { type: 'string', description: "score this project's recorded traces (real, multi-turn) instead of generated ones" },
    trace: { type: 'string', description: 'with --project: only this trace (comma-separated ids for several)' },
    traces: { type: 'string', description: 'single-step traces to generate', default: '12' },
    tools: { type: 'string', description: 'tools (output lines) per trace', default: '15' },
    answers: {
      type: 'string',
      description: "frozen answers: greedy (the model's own continuation) or recorded (the traces' digits: the greedy token never matches)",
      default: 'greedy',
    },
    vocab: { type: 'string', description: 'vocabulary of the generated model: byte (259 tokens) or large (151,936)', default: 'byte' },
    parallel: { type: 'string', description: 'traces scored at once on parallel sequences of one context (default 1)' },
    read: {
      type: 'string',
      description: "how the optimized path reads scored tokens: auto (the fast read where installed) or confidence (the prebuilt binary's path)",
      default: 'auto',
    },
    gpu: { type: 'string', description: 'llama.cpp backend', default: 'auto' },
    'skip-naive': { type: 'boolean', description: 'only the optimized path (no comparison)' },
    'exact-kv': { type: 'boolean', description: 'F32 KV cache (no F16 rounding of keys/values)' },
    cache: { type: 'string', description: 'folder for generated models', default: '.cache/models' },
    json: { type: 'boolean', description: 'print the report as one JSON object' },
  },
  details: [
    'Generates single-step traces (one "<Tool>: <output>" line per tool), freezes each answer as the',
    "model's own greedy continuation, then scores every tool's line removal twice: naive (each context",
    'from scratch, full distribution at every scored token) and optimized (shared prefix kept in the KV',
    'cache, confidence where the greedy token is the frozen one). Reports tokens evaluated against the',
    'prefix-tree minimum, wall times, the speed-up, the score differences, and the per-scored-token cost.',
    "Throughput: the optimized path's tokens evaluated per second against llama.cpp's raw prompt",
    "evaluation (no outputs) of every trace's full context on a context of the same size, sequences and",
    'batch size, timed in the same run; the optimized time is split into decode, output reading and the rest.',
    'The optimized path reads with the fast read where node-llama-cpp was built from its patched sources',
    '(`node build/fast-scorer.mjs`; one pass over the logits per scored token, interventions side by side on',
    "several sequences), else with the prebuilt binary's confidence; the report names the path used.",
    '--json prints the report as one JSON object; its "summary" holds the path, output reading\'s share,',
    'tokens per batch, optimized/raw, the largest score difference and the noise floor.',
    "--project P scores the project's recorded traces (every trace with an answer, or --trace ids) with",
    'the evidence intervention and their recorded answers, and reports per trace the tokens the plan',
    'decoded against that trace\'s prefix-tree minimum (docs/scoring-speed.md, "The minimum").',
  ].join('\n'),
  async run(args, io) {
    const vocab = choice(args, 'vocab', ['byte', 'large']);
    const gpu = choice(args, 'gpu', GPU_CHOICES);
    const answers = choice(args, 'answers', ['greedy', 'recorded']);
    const json = args.flags.json === true;
    const project = flagString(args, 'project');
    const traceIds = flagString(args, 'trace')
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (traceIds && project === undefined) throw new CliError('--trace needs --project (the project whose trace to score)');
    const report = await runScoringBench({
      ...(project !== undefined ? { project: resolve(project), ...(traceIds ? { traceIds } : {}) } : {}),
      model: ((m) => (m === undefined ? undefined : resolveModelArg(m)))(flagString(args, 'model')),
      traces: flagInt(args, 'traces', { min: 1 })!,
      tools: flagInt(args, 'tools', { min: 1 })!,
      vocab,
      answers,
      parallel: flagInt(args, 'parallel', { min: 1 }),
      gpu,
      cacheDir: resolve(requireFlag(args, 'cache')),
      skipNaive: args.flags['skip-naive'] === true,
      exactKvCache: args.flags['exact-kv'] === true,
      read: choice(args, 'read', ['auto', 'confidence']),
      onProgress: json ? undefined : (m) => io.err(`… ${m}`),
    });
    io.out(json ? JSON.stringify(report) : formatReport(report));
    return EXIT_OK;
  },
};

export function formatReport(r: ScoringBenchReport): string {
  const pct = (a: number, b: number): string => `${(((a - b) / b) * 100).toFixed(1)}%`;
  const lines = [
    `model        ${r.model} (vocabulary ${r.vocabulary})`,
    r.source.kind === 'project'
      ? `traces       ${r.traces} recorded from ${r.source.project} (${r.turns} scored turns; evidence removal; recorded answers); ${r.scoredTokens} scored tokens; ${r.parallel} in parallel; context ${r.contextSize}`
      : `traces       ${r.traces} single-step, ${r.tools} tools each, ${r.answers} answers; ${r.scoredTokens} scored tokens; ${r.parallel} in parallel; context ${r.contextSize}`,
    ...(r.unscored.turns + r.unscored.interventions > 0
      ? [
          `not scored   ${r.unscored.turns} turns (e.g. an empty answer), ${r.unscored.interventions} interventions (nothing removed, or no answer tokens without the tool)`,
        ]
      : []),
    '',
    'tokens evaluated',
    `  naive               ${r.tokens.naive}`,
    `  optimized           ${r.tokens.optimized}  (${pct(r.tokens.optimized, r.tokens.prefixTreeMinimum)} over the minimum; ${(r.tokens.naive / r.tokens.optimized).toFixed(2)}× fewer than naive)`,
    ...(r.tokens.planOrder !== r.tokens.optimized
      ? [
          `    in plan order     ${r.tokens.planOrder}  (${(r.tokens.planOrder / r.tokens.prefixTreeMinimum).toFixed(3)}× the minimum; the other ${r.tokens.optimized - r.tokens.planOrder} are the confidence path's re-evaluations where the greedy token is not the frozen one)`,
        ]
      : []),
    `  prefix-tree minimum ${r.tokens.prefixTreeMinimum}`,
    ...(r.source.kind === 'project'
      ? [
          '  per trace (plan order / its minimum, wall time)',
          ...r.perTrace.map(
            (t) =>
              `    ${t.id}  ${t.turns} turns, ${t.sequences} sequences: ${t.tokens} / ${t.minimum} = ${(t.tokens / t.minimum).toFixed(3)}×${t.repairTokens ? ` (+${t.repairTokens} re-evaluated)` : ''}, ${t.seconds.toFixed(1)} s`,
          ),
        ]
      : []),
    '',
    'wall time',
    ...(r.naive ? [`  naive               ${r.naive.seconds.toFixed(2)} s`] : []),
    `  optimized           ${r.optimized.seconds.toFixed(2)} s  (${describePath(r)})`,
    `  read path           ${r.readPath.path} on ${r.readPath.backend}: ${r.readPath.why}`,
    ...(r.speedup !== undefined ? [`  speed-up            ${r.speedup.toFixed(2)}×`] : []),
    '',
    ...(r.scoreDiff
      ? [
          `score difference     mean ${r.scoreDiff.mean.toExponential(2)}, max ${r.scoreDiff.max.toExponential(2)} over ${r.scoreDiff.count} (trace, tool) scores`,
          `token log-prob diff  max ${r.tokenLogprobDiff!.max.toExponential(2)}`,
          '',
        ]
      : []),
    `noise floor          max ${r.noiseFloor.meanLogprob.toExponential(2)} on L, ${r.noiseFloor.tokenLogprob.toExponential(2)} per token: the same ${r.noiseFloor.sequences} full contexts, naive, batches of 512 vs 7 tokens`,
    '',
    'per scored token (one full context, answer positions)',
    `  decode              ${r.perScoredToken.decodeMs.toFixed(3)} ms per token (no outputs)`,
    `  + confidence        ${r.perScoredToken.confidenceMs.toFixed(3)} ms`,
    `  + probabilities     ${r.perScoredToken.probabilitiesMs.toFixed(3)} ms`,
    ...(r.perScoredToken.fastReadMs !== undefined ? [`  + fast read         ${r.perScoredToken.fastReadMs.toFixed(3)} ms`] : []),
    '',
    ...formatThroughput(r),
  ];
  return lines.join('\n');
}

/** Which path read the scored tokens, and how they were split. */
function describePath(r: ScoringBenchReport): string {
  const st = r.optimized.stats;
  if (r.optimized.outputPath === 'fast read')
    return `fast read: ${st.fastPositions} scored tokens in one pass over the logits each; ${r.optimized.lanes} sequences per trace, ${st.sharedTokens} prefix tokens shared instead of evaluated`;
  return (
    `confidence path (node-llama-cpp's prebuilt binary; \`node build/fast-scorer.mjs\` builds the fast read): ${st.confidencePositions} scored tokens by confidence, ` +
    `${st.topKPositions} by top-K, ${st.probabilityPositions} by full distribution; ${st.repairs} re-evaluations`
  );
}

function formatThroughput(r: ScoringBenchReport): string[] {
  const t = r.throughput;
  const rate = (tokens: number, seconds: number): string => `${tokens} tokens in ${seconds.toFixed(2)} s = ${(tokens / seconds).toFixed(1)} tok/s`;
  const split = (s: TimeSplit, total: number, tokens: number): string[] => {
    const share = (x: number): string => `${((x / total) * 100).toFixed(1)}%`;
    return [
      `    decode            ${s.decodeSeconds.toFixed(2)} s (${share(s.decodeSeconds)}; ${s.decodes} batches of ${s.meanBatchTokens.toFixed(1)} tokens on average; ${(tokens / s.decodeSeconds).toFixed(1)} tok/s)`,
      `    output reading    ${s.outputSeconds.toFixed(2)} s (${share(s.outputSeconds)}; ${s.outputs} reads, ${s.outputs ? ((s.outputSeconds / s.outputs) * 1000).toFixed(3) : '0'} ms each)`,
      `    other             ${s.otherSeconds.toFixed(2)} s (${share(s.otherSeconds)}; planning, KV truncation, scheduling)`,
    ];
  };
  return [
    `throughput (context ${t.contextSize} × ${t.parallel} sequence${t.parallel === 1 ? '' : 's'}, batch ${t.batchSize})`,
    `  raw                 ${rate(t.raw.tokens, t.raw.seconds)}  (${t.raw.sequences} full contexts, prompt evaluation, no outputs)`,
    ...(t.raw.time
      ? [
          `    decode            ${t.raw.time.decodeSeconds.toFixed(2)} s; ${t.raw.time.decodes} batches of ${t.raw.time.meanBatchTokens.toFixed(1)} tokens on average`,
        ]
      : []),
    `  optimized           ${rate(t.optimized.tokens, t.optimized.seconds)}`,
    ...(r.optimized.time ? split(r.optimized.time, t.optimized.seconds, t.optimized.tokens) : []),
    `  optimized / raw     ${t.ratio.toFixed(3)}  (on CPU time: ${t.raw.cpuSeconds.toFixed(2)} s raw, ${t.optimized.cpuSeconds.toFixed(2)} s optimized, ratio ${t.cpuRatio.toFixed(3)})`,
    ...(t.positionMatched
      ? [
          `  raw, same positions ${rate(t.positionMatched.tokens, t.positionMatched.seconds)}  (the prefix-tree minimum's ${t.positionMatched.stretches} stretches, ${t.parallel} side by side, each after its prefix; mean position ${t.positionMatched.meanPosition.toFixed(0)} against raw's ${t.positionMatched.rawMeanPosition.toFixed(0)})`,
          `  optimized / raw at the same positions  ${t.positionMatched.ratio.toFixed(3)}`,
        ]
      : []),
  ];
}
