// Nothing scored is lost unseen (issue 39): an intervention whose frozen answer cannot be located
// without the tool is recorded with its reason in the plan and the stored record (it used to be dropped
// silently), and the speed bench's greedy answers stay empty where the model ended at once (they used to
// become '0', an answer the model never gave).
import { expect, it } from 'vitest';
import { planTrace } from '../../../electron/engine/scoring/plan';
import { withGreedyAnswers } from '../../../electron/engine/scoring/greedy-answer';
import { multiStepTraces, singleStepTraces } from '../../../electron/engine/scoring/synthetic-traces';
import { toStoredScore } from '../../../electron/engine/scoring/trace-scores';
import type { ReexecuteExecutor } from '../../../shared/trace/interventions';
import { StoredScoreSchema } from '../../../shared/project/scores';
import { fixtureOpener } from './open-fixture';

const open = fixtureOpener();

it('records an intervention whose answer cannot be located without the tool, with its reason, in the plan and the record', async () => {
  const { renderer } = await open({ kind: 'random' });
  const [trace] = multiStepTraces({ count: 1, tools: 4, seed: 3, task: 't' });
  const plan0 = await planTrace(trace!, renderer, { intervention: 'evidence', span: 'answer' });
  const tools = plan0.turns[0]!.interventions.map((i) => i.tool);
  expect(tools.length).toBeGreaterThanOrEqual(2);
  const victim = tools[0]!;
  // A re-execution after which the agent gave no answer (the executor is the test's: the tools' world).
  const executor: ReexecuteExecutor = {
    reexecuteWithout: (t, turn, tool) => (tool === victim ? { ...t, turns: t.turns.map((x, i) => (i === turn ? { ...x, answer: '' } : x)) } : t),
  };
  const plan = await planTrace(trace!, renderer, { intervention: 'reexecute', span: 'answer', executor });
  expect(plan.turns[0]!.interventions.map((i) => i.tool).sort()).toEqual(tools.filter((t) => t !== victim).sort());
  expect(plan.unscoredInterventions).toEqual([{ turn: 0, tool: victim, reason: 'empty-answer' }]);
  const record = toStoredScore(plan, [{ turn: 0, base: [-1], removed: new Map(plan.turns[0]!.interventions.map((i) => [i.tool, [-2]])) }], {
    key: 'k',
    run: 'r',
    traceHash: 'h',
    model: 'm',
    modelName: 'm',
    intervention: 'reexecute',
    span: 'answer',
    piece: () => 'x',
  });
  expect(StoredScoreSchema.parse(record).unscoredInterventions).toEqual([{ turn: 0, tool: victim, reason: 'empty-answer' }]);
  expect(Object.keys(record.scores)).not.toContain(victim);
});

it('keeps an empty greedy answer empty, and the turn is not scored, with its reason', async () => {
  const { model, renderer } = await open({ kind: 'random' });
  const traces = singleStepTraces({ count: 2, tools: 3, seed: 5, task: 'bench' });
  // No token generated: what a model that ends its turn at once produces.
  const answered = await withGreedyAnswers(model, renderer, traces, 0);
  for (const t of answered) expect(t.turns.at(-1)!.answer).toBe('');
  const plan = await planTrace(answered[0]!, renderer, { intervention: 'line', span: 'answer' });
  expect(plan.turns).toEqual([]);
  expect(plan.unscored).toEqual([{ turn: 0, reason: 'empty-answer' }]);
});
