// The fast read (node-llama-cpp built from its patched sources, build/fast-scorer.mjs): each scored
// token's log-prob is logit − logsumexp(logits), read in one pass, and a trace's interventions are
// scored side by side on several sequences that share the base's KV cells. It must be taken when it
// is installed, and give the naive path's scores to 1e-4 — with one lane and with eight (F32 KV cache:
// without it, F16 rounding turns the batch shapes' tiny differences into ~1e-4 noise). (On a large,
// flat vocabulary the naive path's float32 softmax sums 152k terms with a relative error near 1e-2;
// the fast read sums in double. Against it only the ratios of probabilities are exact: see the last case.)
import { beforeAll, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import type { TraceRenderer } from '../../../electron/engine/scoring/chat-template';
import { scoreTraces, type TraceResult } from '../../../electron/engine/scoring/scorer';
import { withGreedyAnswers } from '../../../electron/engine/scoring/greedy-answer';
import { createScoringContext } from '../../../electron/engine/llama/load';
import { hasFastRead } from '../../../electron/engine/scoring/sequence-runner';
import { meanLogprob } from '../../../electron/engine/scoring/trace-scores';
import { planTrace, prefixTreeMinimum } from '../../../electron/engine/scoring/plan';
import { multiStepTraces, multiTurnTraces, singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';
import type { Trace } from '../../../shared/trace/schema';
import { describeRequiring } from '../../describe-requiring';
import { fixtureOpener } from './open-fixture';
import { watchModelBatches } from '../watch-batches';

const open = fixtureOpener();

async function score(model: LlamaModel, renderer: TraceRenderer, traces: Trace[], mode: 'naive' | 'optimized', lanes?: number) {
  const results = new Map<string, TraceResult>();
  const summary = await scoreTraces(
    model,
    renderer,
    traces,
    { mode, intervention: 'evidence', span: 'answer', exactKvCache: true, ...(lanes ? { lanes } : {}) },
    (r) => {
      results.set(r.plan.trace.id, r);
    },
  );
  return { results, summary };
}

/** The largest |difference| of L(y|h), L(y|h^-s) and I_x(s) between two runs, and how many were compared. */
function largestDifference(a: Map<string, TraceResult>, b: Map<string, TraceResult>): { max: number; compared: number } {
  let max = 0;
  let compared = 0;
  for (const [id, ra] of a) {
    const rb = b.get(id)!;
    ra.logprobs.forEach((ta, i) => {
      const tb = rb.logprobs[i]!;
      const baseA = meanLogprob(ta.base);
      const baseB = meanLogprob(tb.base);
      max = Math.max(max, Math.abs(baseA - baseB));
      for (const [tool, la] of ta.removed) {
        const lb = tb.removed.get(tool)!;
        max = Math.max(max, Math.abs(meanLogprob(la) - meanLogprob(lb)), Math.abs(baseA - meanLogprob(la) - (baseB - meanLogprob(lb))));
        compared++;
      }
    });
  }
  return { max, compared };
}

describeRequiring('fast-scorer', 'the fast read', () => {
  let model: LlamaModel;
  let renderer: TraceRenderer;
  let traces: Trace[];
  beforeAll(async () => {
    ({ model, renderer } = await open({ kind: 'random' }));
    const recorded = [
      ...singleStepTraces({ count: 3, tools: 8, seed: 5 }),
      ...multiStepTraces({ count: 2, tools: 5, seed: 5 }),
      ...multiTurnTraces({ count: 2, tools: 4, seed: 5 }),
    ];
    const greedy = await withGreedyAnswers(
      model,
      renderer,
      recorded.filter((_, i) => i % 2 === 0),
      6,
    );
    traces = recorded.map((t, i) => (i % 2 === 0 ? { ...greedy[i / 2]!, id: `${t.id}-greedy` } : t));
  });

  it('is what the installed binding offers, and what optimized scoring takes', async () => {
    const context = await createScoringContext(model, { contextSize: 256, sequences: 1 });
    try {
      expect(hasFastRead(context)).toBe(true);
    } finally {
      await context.dispose();
    }
    const { summary } = await score(model, renderer, traces.slice(0, 2), 'optimized');
    expect(summary.outputPath).toBe('fast read');
    expect(summary.lanes).toBe(8);
    expect(summary.stats.fastPositions).toBeGreaterThan(0);
    // No sampler read at all: no greedy token, no top-K list, no repair pass.
    expect(summary.stats.confidencePositions + summary.stats.topKPositions + summary.stats.probabilityPositions + summary.stats.repairs).toBe(0);
    // The interventions took the base's prefix over instead of evaluating it again.
    expect(summary.stats.sharedTokens).toBeGreaterThan(0);
  });

  it('agrees with the naive path to 1e-4 on one lane and on eight, and evaluates fewer tokens', { timeout: 600_000 }, async () => {
    const naive = await score(model, renderer, traces, 'naive');
    const one = await score(model, renderer, traces, 'optimized', 1);
    const eight = await score(model, renderer, traces, 'optimized', 8);
    for (const [name, run] of [
      ['one lane', one],
      ['eight lanes', eight],
    ] as const) {
      const d = largestDifference(naive.results, run.results);
      expect(d.compared).toBeGreaterThan(20);
      expect(d.max, name).toBeLessThan(1e-4);
      expect(run.summary.stats.tokensEvaluated).toBeLessThan(naive.summary.stats.tokensEvaluated / 2);
    }
    // Every scored position of the naive path was read by the fast read too.
    expect(one.summary.stats.fastPositions).toBe(naive.summary.stats.probabilityPositions);
    expect(eight.summary.stats.fastPositions).toBe(naive.summary.stats.probabilityPositions);
  });

  it("over several traces on eight lanes: each shared prefix decoded once, results in order, each trace's counts its own", async () => {
    const several = singleStepTraces({ count: 4, tools: 6, seed: 9 });
    const plans = await Promise.all(several.map((t) => planTrace(t, renderer, { intervention: 'evidence', span: 'answer' })));
    const eight = await score(model, renderer, several, 'optimized', 8);
    // The base sequence keeps the prefix the traces share (system text, menu) from one trace to the
    // next, and the lanes take the base's: every token of the minimum once, none twice.
    expect(eight.summary.stats.tokensEvaluated).toBe(prefixTreeMinimum(plans));
    // Delivered in order, one result per trace, with the same scores as one trace at a time on one lane.
    expect([...eight.results.keys()]).toEqual(several.map((t) => t.id));
    const one = await score(model, renderer, several, 'optimized', 1);
    expect(largestDifference(one.results, eight.results).max).toBeLessThan(1e-4);
    // Each result's own counts: its base and its interventions' tails, whatever ran beside them.
    for (const plan of plans) {
      const r = eight.results.get(plan.trace.id)!;
      expect(r.stats.tokensEvaluated).toBeLessThanOrEqual(prefixTreeMinimum([plan]));
      expect(r.stats.fastPositions).toBe(
        plan.turns.reduce((n, t) => n + [t.base, ...t.interventions.map((v) => v.sequence)].reduce((m, q) => m + q.end - q.start, 0), 0),
      );
    }
    expect(eight.summary.stats.tokensEvaluated).toBe([...eight.results.values()].reduce((n, r) => n + r.stats.tokensEvaluated, 0));
  });

  // With several sequences in one batch, llama.cpp's CPU decode corrupted some interventions' log-probs on
  // Qwen2.5 1.5B (I = 11.45 where the naive path and one lane give −0.04: docs/scoring-speed.md); the fixture
  // model does not show it, so the batches themselves are checked. The lanes still take the base's cells.
  it('decodes one sequence a batch, on eight lanes and on parallel traces', async () => {
    const watched = watchModelBatches(model);
    try {
      const several = singleStepTraces({ count: 4, tools: 6, seed: 11 });
      const summary = await scoreTraces(
        model,
        renderer,
        several,
        { mode: 'optimized', intervention: 'evidence', span: 'answer', lanes: 8, parallel: 2 },
        () => undefined,
      );
      expect(summary.lanes * summary.parallel).toBe(16);
      expect(summary.stats.sharedTokens).toBeGreaterThan(0);
      expect(new Set(watched.batches.flatMap((b) => [...b])).size).toBeGreaterThan(2);
      expect(watched.batches.filter((b) => b.size > 1)).toEqual([]);
    } finally {
      watched.restore();
    }
  });

  it('stops between traces when asked', async () => {
    const several = singleStepTraces({ count: 4, tools: 4, seed: 3 });
    const delivered: string[] = [];
    const summary = await scoreTraces(
      model,
      renderer,
      several,
      { mode: 'optimized', intervention: 'evidence', span: 'answer', lanes: 8, shouldStop: () => delivered.length >= 2 },
      (r) => void delivered.push(r.plan.trace.id),
    );
    expect(delivered).toEqual([several[0]!.id, several[1]!.id]);
    expect(summary).toMatchObject({ scored: 2, stopped: true });
  });

  it('on a 151,936-token vocabulary, reads the log-prob ratios of the full distribution at every position', { timeout: 600_000 }, async () => {
    const large = await open({ kind: 'random', vocabularySize: 151_936 });
    const context = await createScoringContext(large.model, { contextSize: 256, sequences: 1 });
    try {
      const sequence = context.getSequence();
      const tokens = large.model.tokenize('Weather: 21 and dry. It is 21.');
      const inputs = tokens.slice(0, -1);
      const full = await sequence.controlledEvaluate(inputs.map((t) => [t, { generateNext: { probabilities: true } }]));
      const top = inputs.map((_, i) => full[i]!.next.probabilities!.keys().next().value!);
      await sequence.clearHistory();
      const frozen = await sequence.controlledEvaluate(inputs.map((t, i) => [t, { generateNext: { tokenLogprob: tokens[i + 1]! } }]));
      await sequence.clearHistory();
      const greedy = await sequence.controlledEvaluate(inputs.map((t, i) => [t, { generateNext: { tokenLogprob: top[i]! } }]));
      let max = 0;
      for (let i = 0; i < inputs.length; i++) {
        const p = full[i]!.next.probabilities!;
        const ratio = Math.log(p.get(tokens[i + 1]!)!) - Math.log(p.get(top[i]!)!);
        max = Math.max(max, Math.abs(ratio - (frozen[i]!.next.tokenLogprob! - greedy[i]!.next.tokenLogprob!)));
        // A log-probability of a real distribution: finite and at most 0.
        expect(frozen[i]!.next.tokenLogprob!).toBeLessThanOrEqual(0);
      }
      expect(inputs.length).toBeGreaterThan(5);
      expect(max).toBeLessThan(1e-4);
    } finally {
      await context.dispose();
    }
  });
});
