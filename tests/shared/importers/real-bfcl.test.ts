// A real BFCL v4 multi-turn result file (gpt-oss-20b served by vLLM; tests/fixtures/real/SOURCE.md),
// counted here straight from the JSON and compared with the import (issue 38, items 2 and 3).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import type { BfclDatasetEntry } from '../../../shared/importers/types';
import { expectConsistent, pairs } from './helpers';

const DIR = join(__dirname, '..', '..', 'fixtures', 'real', 'bfcl');
const RESULT = 'BFCL_v4_multi_turn_base_result.gpt-oss-20b.slice.json';
const text = readFileSync(join(DIR, RESULT), 'utf8');
const dataset = new Map(
  readFileSync(join(DIR, 'BFCL_v4_multi_turn_base.slice.json'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as BfclDatasetEntry)
    .map((e) => [e.id, e] as const),
);

type Entry = { role: string; content?: unknown };
const PRIMARY = ['GorillaFileSystem', 'VehicleControlAPI', 'TradingBot', 'TravelAPI'];

/** Independent count over the raw records. */
function count() {
  const c = { records: 0, logged: 0, turns: 0, calls: 0, observations: 0, textAnswers: 0, callTargets: 0, emptyClosing: 0, templateCalls: 0 };
  for (const line of text.trim().split('\n')) {
    c.records++;
    const rec = JSON.parse(line) as { inference_log?: unknown[] };
    if (!rec.inference_log) continue;
    c.logged++;
    for (const e of rec.inference_log) {
      if (Array.isArray(e) || typeof e !== 'object' || e === null || !('begin_of_turn_query' in e)) continue;
      c.turns++;
      const steps = Object.keys(e)
        .filter((k) => /^step_\d+$/.test(k))
        .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
        .map((k) => (e as Record<string, Entry[]>)[k]!);
      let last: 'text' | 'call' | undefined;
      steps.forEach((step, i) => {
        const a = step.find((x) => x.role === 'assistant');
        c.observations += step.filter((x) => x.role === 'tool').length;
        // A call the handler could not decode is still a call attempt (never answer text).
        if (Array.isArray(a?.content) && a.content.length > 0) {
          const names = (a.content as object[]).map((o) => Object.keys(o)[0]!);
          c.calls += names.length;
          c.templateCalls += names.filter((n) => n.includes('<|') || /[^A-Za-z0-9_.:/-]/.test(n)).length;
          last = 'call';
        } else if (typeof a?.content === 'string' && a.content.trim() !== '') last = 'text';
        else if (i === steps.length - 1) c.emptyClosing++;
      });
      if (last === 'text') c.textAnswers++;
      if (last === 'call') c.callTargets++;
    }
  }
  return c;
}

describe('BFCL v4 multi-turn results of gpt-oss-20b (real file)', () => {
  const expected = count();
  const r = importText(text, { file: RESULT, bfcl: { dataset } });
  const all = r.traces.map((t) => t.trace);

  it('imports every logged record (one with a card number beyond 2^53 in its state snapshot too); the inference error is the one rejection', () => {
    expect(r.format).toBe('bfcl');
    expect(expected.records).toBe(27);
    expect(all).toHaveLength(expected.logged);
    expect(r.errors).toHaveLength(expected.records - expected.logged);
    expect(r.errors[0]!.message).toMatch(/Error during inference/);
    expect(all.map((t) => t.id)).toContain('multi_turn_base_116');
    all.forEach(expectConsistent);
  });

  it('an empty closing step is not the target: the last non-empty assistant message (a call) is, so the turns are scoreable', () => {
    expect(expected.emptyClosing).toBeGreaterThan(expected.turns * 0.9);
    const turns = all.flatMap((t) => t.turns);
    expect(turns).toHaveLength(expected.turns);
    expect(turns.filter((t) => t.target === 'call')).toHaveLength(expected.callTargets);
    expect(turns.filter((t) => t.answer !== '')).toHaveLength(expected.textAnswers);
    expect(r.stats.unansweredTurns).toBe(expected.turns - expected.callTargets - expected.textAnswers);
    expect(r.stats.callTargetTurns).toBe(expected.callTargets);
    const calls = all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))));
    expect(calls).toHaveLength(expected.calls);
    expect(all.flatMap((t) => pairs(t))).toHaveLength(expected.observations);
    // No call, decoded or not, became answer text.
    for (const u of turns) expect(u.answer).not.toMatch(/^\s*[[{]/);
  });

  it('the task is the primary API class, as the paper groups records (ids come in blocks of 50 per class)', () => {
    for (const t of all) {
      const n = Number(t.id.split('_').pop());
      expect(t.task, t.id).toBe(PRIMARY[Math.floor(n / 50)]);
    }
    // Without the dataset the classes come from the state snapshots: same answer.
    const alone = importText(text, { file: RESULT });
    expect(alone.traces.map((t) => t.trace.task)).toEqual(all.map((t) => t.task));
    expect(all.find((t) => t.id === 'multi_turn_base_0')!.task).toBe('GorillaFileSystem');
  });

  it('a tool name carrying a chat-template token (or garbled) is flagged, and kept off the inferred menu', () => {
    expect(expected.templateCalls).toBeGreaterThan(0);
    const alone = importText(text, { file: RESULT });
    expect(alone.stats.malformedToolCalls).toBe(expected.templateCalls);
    const flagged = alone.traces.map((t) => t.trace).filter((t) => Array.isArray(t.meta?.malformedToolNames));
    expect(flagged.length).toBeGreaterThan(0);
    for (const t of alone.traces.map((x) => x.trace)) expect(t.tools.filter((d) => d.name.includes('<|'))).toEqual([]);
    expect(flagged[0]!.meta!.malformedToolNames).toEqual(expect.arrayContaining([expect.stringContaining('<|channel|>')]));
  });
});
