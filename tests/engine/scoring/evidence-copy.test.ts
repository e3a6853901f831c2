// End to end through llama.cpp: on the evidence-copy model (its next token follows the token
// frequencies of its context), the tool whose evidence holds the answer's digits must get the
// highest I_x(s) on every trace, and distractors whose evidence holds none of them less.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLlama, type LlamaModel } from 'node-llama-cpp';
import { createRenderer } from '../../../electron/engine/scoring/chat-template';
import { scoreTraces } from '../../../electron/engine/scoring/scorer';
import { toStoredScore } from '../../../electron/engine/scoring/trace-scores';
import { singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';
import type { StoredScore } from '../../../shared/project/scores';
import type { InterventionKind } from '../../../shared/trace/interventions';
import type { Trace } from '../../../shared/trace/schema';
import { fixtureModel } from '../fixtures';

const models: LlamaModel[] = [];
afterAll(async () => {
  for (const m of models) await m.dispose();
});

async function scoreWith(modelSpec: Parameters<typeof fixtureModel>[0], traces: Trace[], intervention: InterventionKind): Promise<StoredScore[]> {
  const llama = await getLlama({ gpu: false, build: 'never' });
  const model = await llama.loadModel({ modelPath: fixtureModel(modelSpec) });
  models.push(model);
  const renderer = createRenderer(model);
  const rows: StoredScore[] = [];
  await scoreTraces(model, renderer, traces, { mode: 'optimized', intervention, span: 'answer' }, (r) => {
    rows.push(
      toStoredScore(r.plan, r.logprobs, {
        key: r.plan.trace.id,
        run: 'test',
        traceHash: 'h',
        model: 'm',
        modelName: 'm',
        intervention,
        span: 'answer',
        piece: (t) => model.detokenize([t]),
      }),
    );
  });
  return rows;
}

const answerTool = (t: Trace): string => (t.meta!.synthetic as { answerTool: string }).answerTool;

describe.each([
  ['plain transcript, line removal', { kind: 'evidence-copy' as const }, 'line' as const],
  ['plain transcript, evidence removal', { kind: 'evidence-copy' as const }, 'evidence' as const],
  ['ChatML template, line removal', { kind: 'evidence-copy' as const, chatml: true }, 'line' as const],
])('evidence-copy model, %s', (_name, spec, intervention) => {
  const traces = singleStepTraces({ count: 10, tools: 8, seed: 21 });
  let rows: StoredScore[];
  beforeAll(async () => {
    rows = await scoreWith(spec, traces, intervention);
  });

  it('ranks the tool whose line holds the answer first on every trace', () => {
    expect(rows).toHaveLength(traces.length);
    for (const row of rows) {
      const trace = traces.find((t) => t.id === row.trace)!;
      const gold = answerTool(trace);
      const others = Object.entries(row.scores).filter(([tool]) => tool !== gold);
      expect(Object.keys(row.scores)).toHaveLength(8);
      expect(row.scores[gold]).toBeGreaterThan(0);
      for (const [tool, score] of others) expect(score, `${row.trace}: ${tool} vs ${gold}`).toBeLessThan(row.scores[gold]!);
    }
  });

  it('keeps the per-token detail for the inspector', () => {
    const row = rows[0]!;
    const turn = row.turns![0]!;
    expect(turn.tokens!.join('')).toBe(traces[0]!.turns[0]!.answer);
    expect(turn.baseTokenLogprobs).toHaveLength(turn.tokens!.length);
    const gold = answerTool(traces[0]!);
    expect(turn.base - turn.removed[gold]!).toBeCloseTo(row.scores[gold]!, 12);
  });
});
