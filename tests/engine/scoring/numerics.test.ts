// The optimized path's sampler read (prefix reuse, confidence / top-K / full distribution: what the
// prebuilt binary allows; the fast read has its own file, fast-read.test.ts) must give the naive
// path's scores to 1e-4 on every fixture trace: single-step lines, multi-step with parallel calls,
// multi-turn; plain transcript and chat template; frozen answers that are the model's own greedy
// output (confidence path) and recorded ones the model would not produce (top-K and full paths).
import { beforeAll, describe, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import type { TraceRenderer } from '../../../electron/engine/scoring/chat-template';
import { scoreTraces, type TraceResult } from '../../../electron/engine/scoring/scorer';
import { withGreedyAnswers } from '../../../electron/engine/scoring/greedy-answer';
import { emptyStats, addStats } from '../../../electron/engine/scoring/sequence-runner';
import { meanLogprob } from '../../../electron/engine/scoring/trace-scores';
import { multiStepTraces, multiTurnTraces, singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';

import type { Trace } from '../../../shared/trace/schema';
import { fixtureOpener } from './open-fixture';
import { ExpectedError } from '../../../shared/api/errors';

const open = fixtureOpener();

function mixedTraces(): Trace[] {
  return [
    ...singleStepTraces({ count: 3, tools: 6, seed: 3 }),
    ...multiStepTraces({ count: 2, tools: 5, seed: 3 }),
    ...multiTurnTraces({ count: 2, tools: 4, seed: 3 }),
  ];
}

async function run(model: LlamaModel, renderer: TraceRenderer, traces: Trace[], mode: 'naive' | 'optimized', parallel: number) {
  const results = new Map<string, TraceResult>();
  const summary = await scoreTraces(model, renderer, traces, { mode, intervention: 'evidence', span: 'answer', parallel, read: 'confidence' }, (r) => {
    results.set(r.plan.trace.id, r);
  });
  return { results, summary };
}

describe.each([
  ['random llama, plain transcript', { kind: 'random' as const }],
  ['random llama, ChatML template', { kind: 'random' as const, chatml: true }],
  ['evidence-copy', { kind: 'evidence-copy' as const }],
])('optimized == naive: %s', (_name, spec) => {
  let model: LlamaModel;
  let renderer: TraceRenderer;
  let traces: Trace[];
  beforeAll(async () => {
    ({ model, renderer } = await open(spec));
    const recorded = mixedTraces();
    // Half the traces keep the recorded answers, half get the model's greedy continuation.
    const greedy = await withGreedyAnswers(
      model,
      renderer,
      recorded.filter((_, i) => i % 2 === 0),
      6,
    );
    traces = recorded.map((t, i) => (i % 2 === 0 ? { ...greedy[i / 2]!, id: `${t.id}-greedy` } : t));
  });

  it('agrees to 1e-4 on every L(y|h), L(y|h^-s) and I_x(s), with three traces in parallel', async () => {
    const naive = await run(model, renderer, traces, 'naive', 3);
    const optimized = await run(model, renderer, traces, 'optimized', 3);
    expect(optimized.results.size).toBe(traces.length);
    let compared = 0;
    for (const trace of traces) {
      const a = naive.results.get(trace.id)!.logprobs;
      const b = optimized.results.get(trace.id)!.logprobs;
      expect(b.map((t) => t.turn)).toEqual(a.map((t) => t.turn));
      a.forEach((ta, i) => {
        const tb = b[i]!;
        const baseA = meanLogprob(ta.base);
        expect(Math.abs(baseA - meanLogprob(tb.base))).toBeLessThan(1e-4);
        expect([...tb.removed.keys()].sort()).toEqual([...ta.removed.keys()].sort());
        for (const [tool, la] of ta.removed) {
          const lb = tb.removed.get(tool)!;
          expect(Math.abs(meanLogprob(la) - meanLogprob(lb)), `${trace.id} turn ${ta.turn} without ${tool}`).toBeLessThan(1e-4);
          expect(Math.abs(baseA - meanLogprob(la) - (meanLogprob(tb.base) - meanLogprob(lb)))).toBeLessThan(1e-4);
          compared++;
        }
      });
    }
    expect(compared).toBeGreaterThan(20);
    // Fewer tokens than the naive path, and the naive path read full distributions only.
    expect(optimized.summary.stats.tokensEvaluated).toBeLessThan(naive.summary.stats.tokensEvaluated / 2);
    expect(naive.summary.stats.confidencePositions + naive.summary.stats.topKPositions).toBe(0);
    coverage.push(optimized.summary.stats);
  });
});

const coverage: ReturnType<typeof emptyStats>[] = [];
describe('path coverage', () => {
  it('the mixed runs above went through the confidence, top-K and full-distribution paths', () => {
    const total = emptyStats();
    for (const s of coverage) addStats(total, s);
    expect(coverage).toHaveLength(3);
    expect(total.confidencePositions).toBeGreaterThan(0);
    expect(total.topKPositions).toBeGreaterThan(0);
    expect(total.probabilityPositions).toBeGreaterThan(0);
  });
});

describe('no silent context overflow', () => {
  it('a trace longer than the scoring context is an error that names it', async () => {
    const { model, renderer } = await open({ kind: 'random' });
    const long: Trace = { ...singleStepTraces({ count: 1, tools: 3 })[0]!, id: 'the-long-one' };
    long.turns = [{ ...long.turns[0]!, request: 'x'.repeat(400) }];
    const run = scoreTraces(model, renderer, [long], { mode: 'optimized', intervention: 'line', span: 'answer', contextSize: 256 }, () => undefined);
    await expect(run).rejects.toThrow(ExpectedError);
    await expect(run).rejects.toMatchObject({ code: 'CONTEXT_OVERFLOW', message: expect.stringContaining('"the-long-one"') });
  });

  it("a trace longer than the model's trained context is refused before scoring", async () => {
    const { model, renderer } = await open({ kind: 'random', contextLength: 512 });
    const long: Trace = { ...singleStepTraces({ count: 1, tools: 3 })[0]!, id: 'too-long-for-the-model' };
    long.turns = [{ ...long.turns[0]!, request: 'y'.repeat(700) }];
    await expect(scoreTraces(model, renderer, [long], { mode: 'optimized', intervention: 'line', span: 'answer' }, () => undefined)).rejects.toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      message: expect.stringMatching(/"too-long-for-the-model" needs \d+ tokens, more than the model's context length \(512\)/),
    });
  });
});
