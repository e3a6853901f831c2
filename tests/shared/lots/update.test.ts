import { describe, expect, it } from 'vitest';
import { deferredCalls, foldBatch, proposeFromRunning } from '../../../shared/lots/update';
import type { Trace } from '../../../shared/trace/schema';
import type { ScoreRow } from '../../../shared/project/scores';
import type { TaskUpdates } from '../../../shared/project/updates';

const row = (trace: string, scores: Record<string, number>, exposed = Object.keys(scores)): ScoreRow => ({ trace, task: 't', exposed, scores });
const at = '2026-12-01T00:00:00.000Z';

function fold(state: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'>, rows: ScoreRow[], source: string): Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'> {
  return { ...state, batches: [...state.batches, foldBatch('t', state, { rows, traces: rows.length, source, at })] };
}

describe('foldBatch: running scores by EMA (B.3 eq. 9)', () => {
  it('initialises running scores with the first batch means and proposes the top-K', () => {
    const b = foldBatch(
      't',
      { alpha: 0.2, rule: { kind: 'topk', k: 2 }, batches: [] },
      {
        rows: [row('a', { A: 0.5, B: 0.1, C: 0.3 }), row('b', { A: 0.3, B: 0.3, C: 0.1 })],
        traces: 3,
        source: 'traces/0001.jsonl',
        at,
      },
    );
    expect(b.batch).toBe(1);
    expect(b.traces).toBe(3);
    expect(b.scored).toBe(2);
    expect(b.batchMeans).toEqual({ A: 0.4, B: 0.2, C: 0.2 });
    expect(b.running).toEqual(b.batchMeans);
    // B and C tie at 0.2; ties go by name.
    expect(b.proposed).toEqual(['A', 'B']);
    expect(b.entered.map((c) => c.tool)).toEqual(['A', 'B']);
    expect(b.entered[0]).toEqual({ tool: 'A', running: 0.4, cut: 0.2 });
    expect(b.left).toEqual([]);
  });

  it('mixes later batches with weight alpha; tools the batch did not score keep theirs; new tools start at their mean', () => {
    let s: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'> = { alpha: 0.25, rule: { kind: 'topk', k: 2 }, batches: [] };
    s = fold(s, [row('a', { A: 0.8, B: 0.4 })], 'one');
    s = fold(s, [row('b', { A: 0.0, D: 0.9 }, ['A', 'D'])], 'two');
    const b = s.batches[1]!;
    expect(b.batch).toBe(2);
    expect(b.running.A).toBeCloseTo(0.25 * 0.0 + 0.75 * 0.8, 12);
    expect(b.running.B).toBe(0.4); // not scored in batch two: unchanged, no decay
    expect(b.running.D).toBe(0.9); // first scored in batch two: initialised to its batch mean
    expect(b.proposed).toEqual(['D', 'A']);
    expect(b.entered).toEqual([{ tool: 'D', running: 0.9, cut: expect.closeTo(0.6, 12) }]);
    expect(b.left).toEqual([{ tool: 'B', running: 0.4, cut: expect.closeTo(0.6, 12) }]);
  });

  it('lets a tool that left come back under the same rule', () => {
    let s: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'> = { alpha: 0.5, rule: { kind: 'topk', k: 1 }, batches: [] };
    s = fold(s, [row('a', { A: 0.6, B: 0.5 })], '1');
    s = fold(s, [row('b', { A: 0.2 })], '2'); // A: 0.4 < B 0.5
    s = fold(s, [row('c', { A: 1.0 })], '3'); // A: 0.7 > B
    expect(s.batches.map((b) => b.proposed)).toEqual([['A'], ['B'], ['A']]);
    expect(s.batches[2]!.entered.map((c) => c.tool)).toEqual(['A']);
    expect(s.batches[2]!.left.map((c) => c.tool)).toEqual(['B']);
  });

  it('has no cut while the space has room for every scored tool', () => {
    const b = foldBatch('t', { alpha: 0.2, rule: { kind: 'topk', k: 5 }, batches: [] }, { rows: [row('a', { A: 0.1, B: -0.2 })], traces: 1, source: 's', at });
    expect(b.proposed).toEqual(['A', 'B']);
    expect(b.entered.every((c) => c.cut === null)).toBe(true);
  });

  it('support rule: EMA of per-batch support, keeps tools with running support ≥ phi, in running-score order', () => {
    let s: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'> = { alpha: 0.5, rule: { kind: 'support', tau: 0, phi: 0.5 }, batches: [] };
    s = fold(s, [row('a', { A: 0.2, B: -0.1, C: 0.9 }), row('b', { A: 0.1, B: 0.3, C: -0.1 })], '1');
    const first = s.batches[0]!;
    expect(first.batchSupport).toEqual({ A: 1, B: 0.5, C: 0.5 });
    expect(first.runningSupport).toEqual({ A: 1, B: 0.5, C: 0.5 });
    expect(first.proposed).toEqual(['C', 'A', 'B']); // running means: C 0.4, A 0.15, B 0.1
    s = fold(s, [row('c', { B: -0.5, C: 0.2 }), row('d', { B: -0.4, C: 0.3 })], '2');
    const second = s.batches[1]!;
    expect(second.runningSupport).toEqual({ A: 1, B: 0.25, C: 0.75 });
    expect(second.proposed).toEqual(['C', 'A']);
    expect(second.left).toEqual([{ tool: 'B', running: expect.closeTo(0.5 * -0.45 + 0.5 * 0.1, 12), support: 0.25, cut: 0.5 }]);
  });

  it('does not modify the history it reads', () => {
    const s: Pick<TaskUpdates, 'alpha' | 'rule' | 'batches'> = fold({ alpha: 0.3, rule: { kind: 'topk', k: 2 }, batches: [] }, [row('a', { A: 1 })], '1');
    const snapshot = JSON.stringify(s);
    foldBatch('t', s, { rows: [row('b', { A: 0, B: 2 })], traces: 1, source: '2', at });
    expect(JSON.stringify(s)).toBe(snapshot);
  });

  it('refuses a batch without a scored tool, and a bad alpha', () => {
    expect(() => foldBatch('t', { alpha: 0.2, rule: { kind: 'topk', k: 2 }, batches: [] }, { rows: [], traces: 4, source: 'traces/0002.jsonl', at })).toThrow(
      /no scored tool.*score its traces first/,
    );
    expect(() => foldBatch('t', { alpha: 0, rule: { kind: 'topk', k: 2 }, batches: [] }, { rows: [row('a', { A: 1 })], traces: 1, source: 's', at })).toThrow(
      /alpha/,
    );
  });

  it('proposeFromRunning needs support figures for the support rule', () => {
    expect(() => proposeFromRunning({ kind: 'support', tau: 0, phi: 0.05 }, { A: 1 })).toThrow(/support/);
    expect(proposeFromRunning({ kind: 'topk', k: 1 }, { A: 1, B: 2 })).toEqual(['B']);
  });
});

describe('calls of deferred tools (issue 44 item 4)', () => {
  const trace = (calls: string[], deferred: string[] | undefined): Pick<Trace, 'turns' | 'meta'> => ({
    turns: [
      {
        request: 'q',
        answer: 'a',
        steps: calls.map((name, i) => ({ kind: 'call' as const, calls: [{ id: `c${i}`, name, arguments: '{}' }] })),
      },
    ],
    ...(deferred ? { meta: { gateway: { deferred } } } : {}),
  });

  it('counts, per tool, the traces that called it while their forwarded menu had it deferred', () => {
    expect(
      deferredCalls([
        trace(['Doc', 'Doc', 'Calc'], ['Doc', 'Web']), // Doc twice in one trace: one trace
        trace(['Doc'], ['Doc']),
        trace(['Web'], []), // deferred nothing
        trace(['Web'], undefined), // not from a gateway
        trace(['Calc'], ['Doc']), // Calc was pinned
      ]),
    ).toEqual({ Doc: 2 });
  });

  it("promotes a tool called while deferred once the rule's proposal pins it; one the rule leaves out is only counted", () => {
    const base = { alpha: 1, rule: { kind: 'topk' as const, k: 1 }, batches: [] };
    // Doc was deferred and called; its observation carried the answer (I = 0.9 > Calc's 0.2): the rule pins it.
    const up = foldBatch('t', base, { rows: [row('a', { Doc: 0.9, Calc: 0.2 })], traces: 1, source: 's', at, calledWhileDeferred: { Doc: 1 } });
    expect(up.proposed).toEqual(['Doc']);
    expect(up.calledWhileDeferred).toEqual({ Doc: 1 });
    expect(up.promoted).toEqual(['Doc']);
    // Called while deferred, but the answer did not rely on it: counted, not promoted.
    const kept = foldBatch('t', base, { rows: [row('a', { Doc: -0.1, Calc: 0.2 })], traces: 1, source: 's', at, calledWhileDeferred: { Doc: 1 } });
    expect(kept.proposed).toEqual(['Calc']);
    expect(kept.calledWhileDeferred).toEqual({ Doc: 1 });
    expect(kept.promoted).toBeUndefined();
    // No call of a deferred tool: neither field.
    const none = foldBatch('t', base, { rows: [row('a', { Calc: 0.2 })], traces: 1, source: 's', at, calledWhileDeferred: {} });
    expect('calledWhileDeferred' in none || 'promoted' in none).toBe(false);
  });
});
