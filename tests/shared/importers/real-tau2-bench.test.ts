// A tau2-bench results file (claude-sonnet-4-5, retail; tests/fixtures/real/SOURCE.md), counted here
// straight from the JSON and compared with the import (issue 38, item 4): the agent's opening greeting
// is not a turn, the simulated user's closing ###TRANSFER### is not a request, and the reward lands on
// the last real turn.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { correctness } from '../../../shared/trace/correctness';
import { expectConsistent, pairs } from './helpers';

const NAME = 'claude-sonnet-4-5_retail.slice.json';
const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'real', 'tau2-bench', NAME), 'utf8');

interface Msg {
  role: string;
  content: string | null;
  tool_calls?: unknown[] | null;
}
const doc = JSON.parse(text) as {
  info: { environment_info: { domain_name: string } };
  simulations: Array<{ id: string; task_id: string; reward_info: { reward: number }; messages: Msg[] }>;
};
const END = /^###(STOP|TRANSFER|OUT-OF-SCOPE)###$/;

function count() {
  const c = { calls: 0, observations: 0, requests: 0, correct: 0, wrong: 0, answers: [] as string[] };
  for (const s of doc.simulations) {
    const m = s.messages;
    c.calls += m.reduce((n, x) => n + (x.tool_calls?.length ?? 0), 0);
    c.observations += m.filter((x) => x.role === 'tool').length;
    c.requests += m.filter((x) => x.role === 'user' && !END.test(x.content ?? '')).length;
    c.answers.push(m.filter((x) => x.role === 'assistant' && x.content).at(-1)!.content!);
    if (s.reward_info.reward === 1) c.correct++;
    else c.wrong++;
  }
  return c;
}

describe('tau2-bench results (real file)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('is recognised as tau2 results; one trace per simulation, the task is the domain', () => {
    expect(r.format).toBe('tau');
    expect(r.errors).toEqual([]);
    expect(all.map((t) => t.id)).toEqual(doc.simulations.map((s) => s.id));
    all.forEach(expectConsistent);
    expect(new Set(all.map((t) => t.task))).toEqual(new Set([doc.info.environment_info.domain_name]));
  });

  it('keeps every call and observation, and every user request (not the opening greeting, not the closing token)', () => {
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    expect(all.flatMap((t) => pairs(t))).toHaveLength(expected.observations);
    expect(all.flatMap((t) => pairs(t)).every((p) => p.pairing === 'id')).toBe(true);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.requests);
    expect(all.flatMap((t) => t.turns).every((u) => u.request.trim() !== '' && !END.test(u.request))).toBe(true);
    expect(all.map((t) => t.turns.at(-1)!.answer)).toEqual(expected.answers);
  });

  it('puts the reward on the last real turn and keeps the greeting and the end token in meta', () => {
    expect(all.filter((t) => correctness(t) === true)).toHaveLength(expected.correct);
    expect(all.filter((t) => correctness(t) === false)).toHaveLength(expected.wrong);
    const first = doc.simulations[0]!;
    expect(all[0]!.meta).toMatchObject({ agentOpening: first.messages[0]!.content, userEndToken: first.messages.at(-1)!.content, userStopped: true });
  });
});
