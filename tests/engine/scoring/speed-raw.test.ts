// `lots bench scoring`'s throughput section: the optimized path's tokens per second against llama.cpp's
// raw prompt evaluation of the same traces' full contexts, measured in the same run. Behaviour only
// (counts, consistency, the ratio's definition): timings on a shared machine are never asserted.
import { beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { runScoringBench, type ScoringBenchReport } from '../../../electron/engine/scoring/speed';
import { measurePositionMatchedRaw, measureRawThroughput, throughputReport } from '../../../electron/engine/scoring/speed-meters';
import { formatReport } from '../../../electron/cli/commands/bench-scoring';
import { createRenderer } from '../../../electron/engine/scoring/chat-template';
import { minimumStretches, planSequences, planTrace, prefixTreeMinimum } from '../../../electron/engine/scoring/plan';
import { singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';
import { emptyStats } from '../../../electron/engine/scoring/sequence-runner';
import { FIXTURE_DIR, fixtureModel } from '../fixtures';

describe('bench scoring: raw vs optimized throughput', () => {
  let report: ScoringBenchReport;
  beforeAll(async () => {
    report = await runScoringBench({ model: fixtureModel({ kind: 'random' }), traces: 3, tools: 4, vocab: 'byte', gpu: 'cpu', cacheDir: FIXTURE_DIR });
  });

  it('reports positive raw and optimized throughputs, and their ratio', () => {
    const t = report.throughput;
    for (const side of [t.raw, t.optimized]) {
      expect(side.tokens).toBeGreaterThan(0);
      expect(side.seconds).toBeGreaterThan(0);
      expect(side.cpuSeconds).toBeGreaterThan(0);
      expect(side.tokensPerSecond).toBeCloseTo(side.tokens / side.seconds, 6);
    }
    expect(t.ratio).toBeGreaterThan(0);
    expect(t.ratio).toBeCloseTo(t.optimized.tokensPerSecond / t.raw.tokensPerSecond, 9);
    expect(t.cpuRatio).toBeCloseTo(t.optimized.tokens / t.optimized.cpuSeconds / (t.raw.tokens / t.raw.cpuSeconds), 9);
  });

  it('counts the tokens each side evaluated consistently with the rest of the report', () => {
    const t = report.throughput;
    // The optimized side is the optimized path itself: its tokens and wall time.
    expect(t.optimized.tokens).toBe(report.tokens.optimized);
    expect(t.optimized.tokens).toBe(report.optimized.stats.tokensEvaluated);
    expect(t.optimized.seconds).toBe(report.optimized.seconds);
    // The raw side evaluates each trace's full context once (single-step: one per trace) ...
    expect(t.raw.sequences).toBe(report.traces);
    // ... which is one of the sequences the naive path evaluates from scratch per trace (the base and
    // one per removed tool, each as long as or shorter than the base).
    expect(t.raw.tokens * (report.tools + 1)).toBeGreaterThanOrEqual(report.tokens.naive);
    expect(t.raw.tokens).toBeLessThan(report.tokens.naive);
    // Same context shape as the optimized path.
    expect(t.contextSize).toBe(report.contextSize);
    expect(t.parallel).toBe(report.parallel * report.optimized.lanes);
    expect(t.batchSize).toBeGreaterThan(0);
  });

  it('splits the optimized time into decode, output reading and the rest', () => {
    const split = report.optimized.time!;
    expect(split).toBeDefined();
    expect(split.decodes).toBeGreaterThan(0);
    expect(split.decodeSeconds).toBeGreaterThan(0);
    expect(split.decodeSeconds + split.outputSeconds + split.otherSeconds).toBeGreaterThanOrEqual(report.optimized.seconds - 1e-9);
    expect(split.decodeSeconds + split.outputSeconds).toBeLessThanOrEqual(report.optimized.seconds + 1e-9);
    // Every scored position is read once; each re-evaluation reads its positions again.
    const s = report.optimized.stats;
    expect(split.outputs).toBeGreaterThanOrEqual(s.confidencePositions + s.topKPositions + s.probabilityPositions + s.fastPositions);
    // Batches hold every evaluated token: the mean batch times the batches is the tokens evaluated.
    expect(split.meanBatchTokens * split.decodes).toBeCloseTo(s.tokensEvaluated, 6);
    const raw = report.throughput.raw.time!;
    expect(raw.outputs).toBe(0);
    expect(raw.meanBatchTokens * raw.decodes).toBeCloseTo(report.throughput.raw.tokens, 6);
  });

  it('prints the throughput section in the human table and the whole of it in --json', () => {
    const text = formatReport(report);
    expect(text).toMatch(/throughput \(context \d+ × \d+ sequences?, batch \d+\)/);
    // The path that read the scored tokens is named, and the summary carries the figures.
    expect(text).toContain(report.optimized.outputPath === 'fast read' ? 'fast read: ' : 'confidence path');
    expect(report.summary.outputPath).toBe(report.optimized.outputPath);
    // The path and why: the binding in use and the backend (issue 43).
    expect(report.readPath.path).toBe(report.optimized.outputPath);
    expect(report.readPath.backend).toBe('CPU');
    expect(report.readPath.why).toMatch(
      report.readPath.path === 'fast read' ? /patched sources/ : /prebuilt one, which lacks the fast read; `npm run build:fast-scorer`/,
    );
    expect(text).toContain(`read path           ${report.readPath.path} on CPU: ${report.readPath.why}`);
    expect(report.summary.optimizedOverRaw).toBe(report.throughput.ratio);
    expect(report.summary.outputShare).toBeCloseTo(split(report).outputSeconds / report.optimized.seconds, 9);
    expect(text).toMatch(/raw +\d+ tokens in [\d.]+ s = [\d.]+ tok\/s/);
    expect(text).toMatch(/optimized +\d+ tokens in [\d.]+ s = [\d.]+ tok\/s/);
    expect(text).toContain(`optimized / raw     ${report.throughput.ratio.toFixed(3)}`);
    // The yardstick at the same positions: the minimum's tokens, later on average than raw's.
    const matched = report.throughput.positionMatched!;
    expect(matched.tokens).toBe(report.tokens.prefixTreeMinimum);
    expect(matched.meanPosition).toBeGreaterThan(matched.rawMeanPosition);
    expect(matched.ratio).toBeCloseTo(report.throughput.optimized.tokensPerSecond / matched.tokensPerSecond, 9);
    expect(report.summary.optimizedOverPositionMatched).toBe(matched.ratio);
    expect(text).toContain(`optimized / raw at the same positions  ${matched.ratio.toFixed(3)}`);
    const json = JSON.parse(JSON.stringify(report)) as ScoringBenchReport;
    expect(json.throughput).toEqual(report.throughput);
  });
});

function commonPrefix(a: readonly unknown[], b: readonly unknown[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function split(r: ScoringBenchReport) {
  return r.optimized.time!;
}

describe('measureRawThroughput', () => {
  let model: LlamaModel;
  beforeAll(async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    model = await llama.loadModel({ modelPath: fixtureModel({ kind: 'random' }) });
    return () => model.dispose();
  });

  it("evaluates every turn's full context up to its last scored token, on parallel sequences", async () => {
    const renderer = createRenderer(model);
    const traces = singleStepTraces({ count: 5, tools: 3, seed: 5 });
    const plans = await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'line', span: 'answer' })));
    const expected = plans.flatMap((p) => p.turns).reduce((n, t) => n + t.base.end - 1, 0);
    for (const parallel of [1, 3]) {
      const raw = await measureRawThroughput(model, renderer, traces, { contextSize: 1024, parallel });
      expect(raw.tokens).toBe(expected);
      expect(raw.sequences).toBe(traces.length);
      expect(raw.seconds).toBeGreaterThan(0);
      expect(raw.time!.outputs).toBe(0);
      expect(raw.time!.meanBatchTokens * raw.time!.decodes).toBeCloseTo(expected, 6);
    }
    // The hook is gone afterwards: a context created now is not metered (and works).
    expect(Object.prototype.hasOwnProperty.call(model, 'createContext')).toBe(false);
  });

  it("evaluates the prefix-tree minimum's tokens at their positions: each sequence after the prefix an earlier one shares", async () => {
    const renderer = createRenderer(model);
    const traces = singleStepTraces({ count: 3, tools: 3, seed: 7 });
    const plans = await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'line', span: 'answer' })));
    const stretches = minimumStretches(plans);
    // The new parts are exactly the minimum's tokens; the first sequence starts at position 0, and every
    // later one after a prefix it shares with an earlier sequence (the traces' common system text at least).
    expect(stretches.reduce((n, s) => n + s.tokens.length - s.from, 0)).toBe(prefixTreeMinimum(plans));
    expect(stretches[0]!.from).toBe(0);
    expect(stretches.slice(1).every((s) => s.from > 0)).toBe(true);
    const sequences = plans.flatMap(planSequences);
    for (const s of stretches) {
      const earlier = sequences.slice(
        0,
        sequences.findIndex((q) => q.tokens.slice(0, q.end - 1).join() === s.tokens.join()),
      );
      const shared = Math.max(0, ...earlier.map((q) => commonPrefix(q.tokens.slice(0, q.end - 1), s.tokens)));
      expect(s.from).toBe(shared);
    }
    const matched = await measurePositionMatchedRaw(model, plans, { contextSize: 1024, parallel: 4 });
    expect(matched.tokens).toBe(prefixTreeMinimum(plans));
    expect(matched.stretches).toBe(stretches.length);
    expect(matched.seconds).toBeGreaterThan(0);
    // Mean positions by their definition: of each new token in its sequence, and of raw's full contexts.
    const positions = stretches.reduce((a, s) => a + Array.from({ length: s.tokens.length - s.from }, (_, i) => s.from + i).reduce((x, y) => x + y, 0), 0);
    expect(matched.meanPosition).toBeCloseTo(positions / matched.tokens, 9);
    const full = plans.map((p) => p.turns.at(-1)!.base.end - 1);
    expect(matched.rawMeanPosition).toBeCloseTo(full.reduce((a, n) => a + (n * (n - 1)) / 2, 0) / full.reduce((a, n) => a + n, 0), 9);
  });

  it('defines the ratio as optimized tokens per second over raw tokens per second', () => {
    const stats = { ...emptyStats(), tokensEvaluated: 300 };
    const t = throughputReport(
      { tokens: 400, sequences: 2, seconds: 2, cpuSeconds: 4, batchSize: 512 },
      { seconds: 3, cpuSeconds: 3, stats, outputPath: 'confidence', lanes: 1 },
      1024,
      1,
      512,
    );
    expect(t.raw.tokensPerSecond).toBe(200);
    expect(t.optimized.tokensPerSecond).toBe(100);
    expect(t.ratio).toBe(0.5);
    expect(t.cpuRatio).toBe(1);
  });
});
