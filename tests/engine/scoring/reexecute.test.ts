// The re-execute intervention on the built-in benchmark (paper B.2, TGB): removing an upstream tool
// re-runs the chain, so downstream tools return their error. On the evidence-copy model the gold
// chain of each family ranks on top, which line removal alone misses for chains whose last step
// repeats the answer (fx_settle's ExchangeRate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { FAMILIES } from '../../../shared/benchmark/families';
import type { FamilyName } from '../../../shared/benchmark/family';
import { benchExecutor, buildBenchTrace } from '../../../shared/benchmark/trace';
import { instantiate } from '../../../shared/benchmark/instance';
import { createRenderer, type TraceRenderer } from '../../../electron/engine/scoring/chat-template';
import { planTrace } from '../../../electron/engine/scoring/plan';
import { scoreTraces } from '../../../electron/engine/scoring/scorer';
import { meanLogprob, toStoredScore } from '../../../electron/engine/scoring/trace-scores';
import type { InterventionKind } from '../../../shared/trace/interventions';
import { evidenceCopyModel } from '../fixtures';

const families: FamilyName[] = ['table_total', 'sensor_mean', 'fx_settle'];
const traces = generateBenchmark({ fit: 1, eval: 0, answers: 'gold', families });
let model: LlamaModel;
let renderer: TraceRenderer;

beforeAll(async () => {
  const llama = await getLlama({ gpu: false, build: 'never' });
  model = await llama.loadModel({ modelPath: evidenceCopyModel() });
  renderer = createRenderer(model);
});
afterAll(async () => {
  await model.dispose();
});

async function taskRanking(intervention: InterventionKind): Promise<Map<string, string[]>> {
  const sums = new Map<string, Map<string, number[]>>();
  await scoreTraces(model, renderer, traces, { mode: 'optimized', intervention, span: 'answer', executor: benchExecutor }, (r) => {
    const row = toStoredScore(r.plan, r.logprobs, {
      key: 'k',
      run: 'r',
      traceHash: 'h',
      model: 'm',
      modelName: 'm',
      intervention,
      span: 'answer',
      piece: () => '',
    });
    const perTool = sums.get(row.task!) ?? new Map<string, number[]>();
    sums.set(row.task!, perTool);
    for (const [tool, score] of Object.entries(row.scores)) perTool.set(tool, [...(perTool.get(tool) ?? []), score]);
  });
  const ranking = new Map<string, string[]>();
  for (const [task, perTool] of sums) {
    const mean = [...perTool].map(([tool, v]) => [tool, v.reduce((a, b) => a + b, 0) / v.length] as const);
    ranking.set(
      task,
      mean.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tool]) => tool),
    );
  }
  return ranking;
}

describe('re-execute intervention on benchmark traces', () => {
  it('re-runs the chain: a downstream tool returns its error instead of the answer', async () => {
    const trace = traces.find((t) => t.task === 'table_total')!;
    const plan = await planTrace(trace, renderer, { intervention: 'reexecute', span: 'answer', executor: benchExecutor });
    const lineOnly = await planTrace(trace, renderer, { intervention: 'line', span: 'answer' });
    const reexec = plan.turns[0]!.interventions.find((i) => i.tool === 'TableQuery')!;
    const removed = lineOnly.turns[0]!.interventions.find((i) => i.tool === 'TableQuery')!;
    const text = model.detokenize(reexec.sequence.tokens);
    expect(text).not.toMatch(/^TableQuery: /m);
    expect(text).toMatch(/Calculator: \w*Error/);
    expect(model.detokenize(removed.sequence.tokens)).toContain(`Calculator: ${trace.turns[0]!.answer}`);
  });

  it("ranks each family's gold chain on top on the evidence-copy model", async () => {
    const ranking = await taskRanking('reexecute');
    for (const family of families) {
      const chain = [...FAMILIES[family].chainTools].sort();
      expect(ranking.get(family)!.slice(0, chain.length).sort(), family).toEqual(chain);
    }
  });

  it('optimized == naive to 1e-4 with re-execution too', async () => {
    // A short menu (the chain and two distractors) keeps the naive path (every context from scratch) quick.
    const instance = instantiate('0', 'fx_settle', 0);
    const menu = [...FAMILIES.fx_settle.chainTools, 'Barcode', 'Solver'];
    const subset = [buildBenchTrace(instance, { menu, registry: 15, split: 'fit', answer: instance.gold })];
    const out: Record<string, number[]> = { naive: [], optimized: [] };
    for (const mode of ['naive', 'optimized'] as const) {
      await scoreTraces(model, renderer, subset, { mode, intervention: 'reexecute', span: 'answer', executor: benchExecutor }, (r) => {
        for (const t of r.logprobs) out[mode]!.push(meanLogprob(t.base), ...[...t.removed.values()].map(meanLogprob));
      });
    }
    expect(out.optimized).toHaveLength(out.naive!.length);
    out.naive!.forEach((v, i) => expect(Math.abs(v - out.optimized![i]!)).toBeLessThan(1e-4));
  });
});
