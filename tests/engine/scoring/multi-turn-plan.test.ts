// A multi-turn record scored in one pass per intervention (docs/scoring-speed.md, "The minimum"): on a
// real tau-bench airline trajectory (tests/fixtures/real/scoring/SOURCE.md) the tokens the plan's order
// decodes stay within 1.05× of the prefix-tree minimum. Evaluating turn by turn — the base, every
// intervention, then the next turn — decoded each intervention's context again at every turn (several
// times the minimum on this record). Progress inside the trace is reported sequence by sequence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import type { Trace } from '../../../shared/trace/schema';
import { planSequences, planTrace, prefixTreeMinimum } from '../../../electron/engine/scoring/plan';
import { scoreTraces, type TraceResult } from '../../../electron/engine/scoring/scorer';
import { planSize, type PlanProgress } from '../../../electron/engine/scoring/trace-scores';
import { fixtureOpener } from './open-fixture';

const open = fixtureOpener();
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'real', 'scoring', 'tau-bench-airline-task-2.json');

function tauTrace(): Trace {
  const r = importText(readFileSync(FIXTURE, 'utf8'), { file: 'tau-bench-airline-task-2.json' });
  expect(r.errors).toEqual([]);
  expect(r.traces).toHaveLength(1);
  return r.traces[0]!.trace;
}

it('scores a real multi-turn trace within 1.05× of the prefix-tree minimum, reporting progress per sequence', async () => {
  const trace = tauTrace();
  const { model, renderer } = await open({ kind: 'random', chatml: true, contextLength: 32_768 });
  const options = { intervention: 'evidence' as const, span: 'answer' as const };
  const plan = await planTrace(trace, renderer, options);
  // The record as the issue describes it: several scored turns, tools scored at more than one turn.
  expect(plan.turns.length).toBeGreaterThanOrEqual(4);
  const perTool = new Map<string, number>();
  for (const t of plan.turns) for (const iv of t.interventions) perTool.set(iv.tool, (perTool.get(iv.tool) ?? 0) + 1);
  expect(perTool.size).toBeGreaterThanOrEqual(3);
  expect(Math.max(...perTool.values())).toBeGreaterThanOrEqual(3);

  const minimum = prefixTreeMinimum([plan]);
  const naive = planSequences(plan).reduce((n, s) => n + s.end - 1, 0);
  // Each turn's context holds every earlier turn: evaluating every sequence from scratch costs several times the minimum.
  expect(naive).toBeGreaterThan(3 * minimum);

  const progress: PlanProgress[] = [];
  let result: TraceResult | undefined;
  const summary = await scoreTraces(model, renderer, [trace], { ...options, mode: 'optimized', onSequence: (_t, p) => progress.push(p) }, (r) => {
    result = r;
  });
  expect(summary.scored).toBe(1);
  const decoded = summary.stats.tokensEvaluated - summary.stats.repairTokens;
  expect(decoded).toBeGreaterThanOrEqual(minimum - summary.stats.sharedTokens);
  expect(decoded).toBeLessThanOrEqual(1.05 * minimum);

  // Progress: one report per sequence of the plan, counting up to the plan's size.
  const size = planSize(result!.plan);
  expect(progress).toHaveLength(size.sequences);
  progress.forEach((p, i) => {
    expect(p.sequencesDone).toBe(i + 1);
    expect(p.sequences).toBe(size.sequences);
    expect(p.scoredTokens).toBe(size.scoredTokens);
  });
  expect(progress.at(-1)!.scoredTokensDone).toBe(size.scoredTokens);
  // Every turn's scores are there, for every intervention of that turn.
  expect(result!.logprobs.map((l) => l.turn)).toEqual(plan.turns.map((t) => t.turn));
  result!.logprobs.forEach((l, i) => expect([...l.removed.keys()]).toEqual(plan.turns[i]!.interventions.map((iv) => iv.tool)));
});
