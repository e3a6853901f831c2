// The meters of `lots bench scoring` (speed.ts runs the paths): the per-scored-token price of reading
// outputs, llama.cpp's raw prompt evaluation of the traces' full contexts (the physical limit the
// optimized path's throughput is set against), CPU seconds, and the split of a context's time between
// decoding batches and reading outputs (hooked into node-llama-cpp).
import type { LlamaContext, LlamaModel, Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import { createScoringContext } from '../llama/load';
import { minimumStretches, planTrace, type TracePlan } from './plan';
import type { TraceRenderer } from './chat-template';
import type { PathResult, ScoringBenchReport, ThroughputReport, TimeSplit } from './speed';
import { hasFastRead } from './sequence-runner';
import { commonPrefixLength } from './span';

/** Time one full-context evaluation with no outputs, with `confidence`, and with `probabilities` at the
 * answer positions; the differences per scored position are the per-token overheads. Where the
 * decode calls can be timed, the overheads are what the evaluation spent outside them (reading the
 * outputs, in C++ and JS): the decode itself, the noisy bulk on a shared machine, drops out. */
export async function measurePerTokenCost(model: LlamaModel, renderer: TraceRenderer, trace: Trace): Promise<ScoringBenchReport['perScoredToken']> {
  const tokens = renderer.render(trace, 0, trace.turns[0]!.answer);
  const contextOnly = renderer.render(trace, 0, '');
  let start = 0;
  while (start < contextOnly.length && tokens[start] === contextOnly[start]) start++;
  const positions = Math.max(1, tokens.length - 1 - (start - 1));
  const meter = meterContexts(model);
  try {
    const context = await createScoringContext(model, { contextSize: Math.ceil((tokens.length + 64) / 256) * 256, sequences: 1 });
    const sequence = context.getSequence();
    /** Best of three: the whole evaluation and the part outside llama_decode, in ms. */
    const time = async (output: 'none' | 'confidence' | 'probabilities' | 'fast'): Promise<{ wall: number; decode: number; rest: number }> => {
      const best = { wall: Infinity, decode: Infinity, rest: Infinity };
      for (let rep = 0; rep < 3; rep++) {
        await sequence.clearHistory();
        const items = tokens.slice(0, -1).map((t: Token, pos) =>
          output === 'none' || pos < start - 1
            ? t
            : ([
                t,
                {
                  generateNext:
                    output === 'fast'
                      ? { tokenLogprob: tokens[pos + 1]! }
                      : output === 'confidence'
                        ? { token: true, confidence: true }
                        : { probabilities: true },
                },
              ] as [Token, object]),
        );
        meter.reset();
        const t0 = performance.now();
        await sequence.controlledEvaluate(items);
        const wall = performance.now() - t0;
        const decode = (meter.split(wall / 1000)?.decodeSeconds ?? Number.NaN) * 1000;
        best.wall = Math.min(best.wall, wall);
        best.decode = Math.min(best.decode, decode);
        best.rest = Math.min(best.rest, wall - decode);
      }
      return best;
    };
    try {
      const none = await time('none');
      const confidence = await time('confidence');
      const probabilities = await time('probabilities');
      const fast = hasFastRead(context) ? await time('fast') : undefined;
      const timed = Number.isFinite(none.decode);
      const overhead = (t: { wall: number; rest: number }): number => Math.max(0, timed ? t.rest - none.rest : t.wall - none.wall) / positions;
      return {
        decodeMs: (timed ? none.decode : none.wall) / tokens.length,
        confidenceMs: overhead(confidence),
        probabilitiesMs: overhead(probabilities),
        ...(fast ? { fastReadMs: overhead(fast) } : {}),
      };
    } finally {
      await context.dispose();
    }
  } finally {
    meter.restore();
  }
}

export interface RawResult {
  tokens: number;
  sequences: number;
  seconds: number;
  cpuSeconds: number;
  batchSize: number;
  time?: TimeSplit;
}

/**
 * llama.cpp's raw batch evaluation on this machine: every trace's full context (its last scored turn's
 * sequence with every tool present, up to its last scored token: a multi-turn record's whole transcript), each from an empty sequence with
 * `evaluateWithoutGeneratingNewTokens` (no outputs, nothing read), on `parallel` sequences of a
 * context of the optimized path's size and default batch size. Only the evaluation is timed.
 */
export async function measureRawThroughput(
  model: LlamaModel,
  renderer: TraceRenderer,
  traces: readonly Trace[],
  options: { contextSize: number; parallel: number; batchSize?: number; exactKvCache?: boolean },
): Promise<RawResult> {
  const plans = await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'line', span: 'answer' })));
  // A multi-turn record's last scored turn holds every earlier one: that is its full context.
  const inputs = plans.flatMap((p) => p.turns.slice(-1).map((t) => t.base.tokens.slice(0, t.base.end - 1)));
  const meter = meterContexts(model);
  try {
    const context = await createScoringContext(model, {
      contextSize: options.contextSize,
      sequences: Math.max(1, options.parallel),
      batchSize: options.batchSize,
      exactKvCache: options.exactKvCache,
    });
    try {
      let next = 0;
      let tokens = 0;
      const sequences = Array.from({ length: Math.max(1, Math.min(options.parallel, inputs.length)) }, () => context.getSequence());
      meter.reset();
      const started = performance.now();
      const cpu = process.cpuUsage();
      await Promise.all(
        sequences.map(async (sequence) => {
          while (next < inputs.length) {
            const input = inputs[next++]!;
            await sequence.clearHistory();
            await sequence.evaluateWithoutGeneratingNewTokens(input);
            tokens += input.length;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = cpuSince(cpu);
      const time = meter.split(seconds);
      return { tokens, sequences: inputs.length, seconds, cpuSeconds, batchSize: context.batchSize, ...(time ? { time } : {}) };
    } finally {
      await context.dispose();
    }
  } finally {
    meter.restore();
  }
}

/** Raw evaluation at the positions the optimized path decodes at. */
export interface PositionMatchedResult {
  tokens: number;
  stretches: number;
  seconds: number;
  cpuSeconds: number;
  /** Mean position in its context of a token evaluated: here, and in the raw full-context evaluation. */
  meanPosition: number;
  rawMeanPosition: number;
}

/**
 * llama.cpp's raw evaluation of the tokens the optimized path must decode, at the positions it decodes
 * them (docs/scoring-speed.md, "Where a token sits"): the prefix-tree minimum as stretches — each
 * sequence's tokens after the longest prefix an earlier sequence shares with it — `parallel` stretches
 * side by side as the optimized path runs its interventions, each on a sequence whose prefix was
 * evaluated first and is not timed. No outputs, nothing read. A token late in its context attends over
 * more cells and costs more, and the optimized path's tokens (the interventions' tails) are late ones,
 * while raw full-context evaluation's are spread from the first position on: this is the yardstick with
 * the same positions.
 */
export async function measurePositionMatchedRaw(
  model: LlamaModel,
  plans: readonly TracePlan[],
  options: { contextSize: number; parallel: number; batchSize?: number; exactKvCache?: boolean },
): Promise<PositionMatchedResult> {
  const stretches = minimumStretches(plans);
  const lanes = Math.max(1, Math.min(options.parallel, stretches.length));
  const context = await createScoringContext(model, {
    contextSize: options.contextSize,
    sequences: lanes,
    batchSize: options.batchSize,
    exactKvCache: options.exactKvCache,
  });
  try {
    const sequences = Array.from({ length: lanes }, () => context.getSequence());
    const share = hasFastRead(context) && !sequences[0]!.needsCheckpoints;
    let seconds = 0;
    let cpuSeconds = 0;
    let tokens = 0;
    let positions = 0;
    for (let i = 0; i < stretches.length; i += lanes) {
      const chunk = stretches.slice(i, i + lanes);
      // The prefixes, untimed: what the optimized path already holds in its cache when a tail starts.
      // Each takes what it can from the cells a sequence already holds (its own, or another's where the
      // binding shares cells), so only the rest of it is evaluated.
      for (const [j, s] of chunk.entries()) {
        const sequence = sequences[j]!;
        const prefix = s.tokens.slice(0, s.from);
        const own = commonPrefixLength(sequence.contextTokens, prefix);
        let holder: { sequence: (typeof sequences)[number]; length: number } | undefined;
        if (share)
          for (const other of sequences)
            if (other !== sequence) {
              const length = commonPrefixLength(other.contextTokens, prefix);
              if (length > own && length > (holder?.length ?? 0)) holder = { sequence: other, length };
            }
        // At least the prefix's last token is evaluated here: llama.cpp copies shared cells between KV
        // streams at the next decode, which must not be the timed one.
        const take = holder ? Math.min(holder.length, prefix.length - 1) : 0;
        if (holder && take > own) await sequence.shareTokensFrom(holder.sequence, take);
        else if (own < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: own, end: sequence.nextTokenIndex }]);
        const held = holder && take > own ? take : own;
        if (held < prefix.length) await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(held));
      }
      const started = performance.now();
      const cpu = process.cpuUsage();
      await Promise.all(chunk.map((s, j) => sequences[j]!.evaluateWithoutGeneratingNewTokens(s.tokens.slice(s.from))));
      seconds += (performance.now() - started) / 1000;
      cpuSeconds += cpuSince(cpu);
      for (const s of chunk) {
        const n = s.tokens.length - s.from;
        tokens += n;
        positions += n * s.from + (n * (n - 1)) / 2;
      }
    }
    // Raw evaluates each trace's full context (the last scored turn's base) from position 0.
    const full = plans.flatMap((p) => p.turns.slice(-1).map((t) => t.base.end - 1));
    const rawTokens = full.reduce((a, n) => a + n, 0);
    const rawPositions = full.reduce((a, n) => a + (n * (n - 1)) / 2, 0);
    return {
      tokens,
      stretches: stretches.length,
      seconds,
      cpuSeconds,
      meanPosition: tokens ? positions / tokens : 0,
      rawMeanPosition: rawTokens ? rawPositions / rawTokens : 0,
    };
  } finally {
    await context.dispose();
  }
}

export function throughputReport(
  raw: RawResult,
  optimized: PathResult,
  contextSize: number,
  parallel: number,
  batchSize: number,
  matched?: PositionMatchedResult,
): ThroughputReport {
  const rawRate = raw.tokens / raw.seconds;
  const optimizedRate = optimized.stats.tokensEvaluated / optimized.seconds;
  return {
    ...(matched
      ? {
          positionMatched: {
            tokens: matched.tokens,
            stretches: matched.stretches,
            seconds: matched.seconds,
            tokensPerSecond: matched.tokens / matched.seconds,
            cpuSeconds: matched.cpuSeconds,
            meanPosition: matched.meanPosition,
            rawMeanPosition: matched.rawMeanPosition,
            ratio: optimizedRate / (matched.tokens / matched.seconds),
          },
        }
      : {}),
    raw: {
      tokens: raw.tokens,
      sequences: raw.sequences,
      seconds: raw.seconds,
      tokensPerSecond: rawRate,
      cpuSeconds: raw.cpuSeconds,
      ...(raw.time ? { time: raw.time } : {}),
    },
    optimized: { tokens: optimized.stats.tokensEvaluated, seconds: optimized.seconds, tokensPerSecond: optimizedRate, cpuSeconds: optimized.cpuSeconds },
    ratio: optimizedRate / rawRate,
    cpuRatio: optimized.stats.tokensEvaluated / optimized.cpuSeconds / (raw.tokens / raw.cpuSeconds),
    contextSize,
    parallel,
    batchSize,
  };
}

export function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** Typed as functions that need their receiver: the hooks below call them with the native context as `this`. */
interface NativeContext {
  initBatch: (this: unknown, size: number) => unknown;
  decodeBatch: (this: unknown) => Promise<unknown>;
  sampleToken: (this: unknown, ...args: unknown[]) => Promise<unknown>;
  /** The fast read (node-llama-cpp built from its patched sources), synchronous. */
  getTokenLogprob?: (this: unknown, batchLogitIndex: number, token: number) => number;
}

/**
 * Time llama.cpp's decode and sample calls on every context the model creates while the meter is
 * on (scoreTraces makes its own). It hooks node-llama-cpp internals (LlamaContext._ctx, the native
 * context): where they are missing the split is simply not reported.
 */
export function meterContexts(model: LlamaModel): { reset(): void; split(seconds: number): TimeSplit | undefined; batchSize(): number; restore(): void } {
  let decodeMs = 0;
  let outputMs = 0;
  let decodes = 0;
  let batchTokens = 0;
  let outputs = 0;
  let hooked = false;
  let batchSize = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- unbound on purpose: the hook calls it with the model as `this`.
  const original = model.createContext;
  const own = Object.getOwnPropertyDescriptor(model, 'createContext');
  const timed = <A extends unknown[], R>(fn: (...a: A) => Promise<R>, add: (ms: number) => void) =>
    async function (this: unknown, ...args: A): Promise<R> {
      const t0 = performance.now();
      try {
        return await fn.apply(this, args);
      } finally {
        add(performance.now() - t0);
      }
    };
  const hook = (context: LlamaContext): void => {
    batchSize = context.batchSize;
    const native = (context as unknown as { _ctx?: Partial<NativeContext> })._ctx;
    if (!native || typeof native.decodeBatch !== 'function' || typeof native.sampleToken !== 'function' || typeof native.initBatch !== 'function') return;
    const { initBatch, decodeBatch, sampleToken } = native as NativeContext;
    const define = (name: keyof NativeContext, value: unknown): void => {
      Object.defineProperty(native, name, { value, configurable: true, writable: true });
    };
    define('initBatch', function (this: unknown, size: number) {
      batchTokens += size;
      return initBatch.call(this, size);
    });
    define(
      'decodeBatch',
      timed(decodeBatch, (ms) => ((decodeMs += ms), decodes++)),
    );
    define(
      'sampleToken',
      timed(sampleToken, (ms) => ((outputMs += ms), outputs++)),
    );
    const { getTokenLogprob } = native as NativeContext;
    if (typeof getTokenLogprob === 'function') {
      define('getTokenLogprob', function (this: unknown, batchLogitIndex: number, token: number) {
        const t0 = performance.now();
        try {
          return getTokenLogprob.call(this, batchLogitIndex, token);
        } finally {
          outputMs += performance.now() - t0;
          outputs++;
        }
      });
    }
    hooked = true;
  };
  Object.defineProperty(model, 'createContext', {
    configurable: true,
    writable: true,
    value: async function (this: LlamaModel, ...args: Parameters<LlamaModel['createContext']>) {
      const context = await original.apply(this, args);
      hook(context);
      return context;
    },
  });
  return {
    reset() {
      decodeMs = outputMs = decodes = batchTokens = outputs = 0;
    },
    split(seconds) {
      if (!hooked) return undefined;
      return {
        decodeSeconds: decodeMs / 1000,
        outputSeconds: outputMs / 1000,
        otherSeconds: Math.max(0, seconds - (decodeMs + outputMs) / 1000),
        decodes,
        meanBatchTokens: decodes ? batchTokens / decodes : 0,
        outputs,
      };
    },
    batchSize: () => batchSize,
    restore() {
      if (own) Object.defineProperty(model, 'createContext', own);
      else Reflect.deleteProperty(model, 'createContext');
    },
  };
}
