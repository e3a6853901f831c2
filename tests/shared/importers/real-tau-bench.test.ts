// tau-bench historical trajectories (gpt-4o, airline; tests/fixtures/real/SOURCE.md), counted here straight
// from the JSON and compared with the import (issue 38, items 4 and 7).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { correctness } from '../../../shared/trace/correctness';
import { expectConsistent, pairs } from './helpers';

const NAME = 'gpt-4o-airline.slice.json';
const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'real', 'tau-bench', NAME), 'utf8');

interface Msg {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
}
const records = JSON.parse(text) as Array<{ task_id: number; trial: number; reward: number; traj: Msg[] }>;

function count() {
  const c = { calls: 0, observations: 0, requests: 0, correct: 0, wrong: 0 };
  for (const r of records) {
    const traj = r.traj;
    c.calls += traj.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
    c.observations += traj.filter((m) => m.role === 'tool').length;
    // The closing user message ("###STOP###") asks nothing.
    c.requests += traj.filter((m, i) => m.role === 'user' && !(i === traj.length - 1 && (m.content ?? '').includes('###STOP###'))).length;
    if (r.reward === 1) c.correct++;
    else c.wrong++;
  }
  return c;
}

describe('tau-bench trajectories (real file)', () => {
  const expected = count();
  const r = importText(text, { file: NAME, sourcePath: `historical_trajectories/${NAME}` });
  const all = r.traces.map((t) => t.trace);

  it('are recognised as tau-bench and every trajectory imports, one trace each', () => {
    expect(r.format).toBe('tau');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(records.length);
    all.forEach(expectConsistent);
    expect(all.map((t) => t.id)).toEqual(records.map((x) => `tau-airline-${x.task_id}-trial${x.trial}`));
  });

  it('keep every call, observation and user request; the task is the domain', () => {
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    expect(all.flatMap((t) => pairs(t))).toHaveLength(expected.observations);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.requests);
    expect(new Set(all.map((t) => t.task))).toEqual(new Set(['airline']));
  });

  it('read the reward as the outcome: 1 → correct, 0 → wrong', () => {
    expect(all.filter((t) => correctness(t) === true)).toHaveLength(expected.correct);
    expect(all.filter((t) => correctness(t) === false)).toHaveLength(expected.wrong);
    expect(expected.correct).toBeGreaterThan(0);
    expect(expected.wrong).toBeGreaterThan(0);
  });

  it("say how many records were read to detect the format, not as if it were the file's count", () => {
    expect(r.reason).toMatch(/6 of the first 6 record\(s\), read to detect the format, match/);
  });
});
