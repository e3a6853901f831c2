import { describe, expect, it } from 'vitest';
import { TraceSchema, type Trace, type TraceInput } from '../../../shared/trace/schema';
import { removeEvidence, removeLine, removeByReexecution, scoreableTools, scoreableToolsOfTrace } from '../../../shared/trace/interventions';
import { parseTraceLine, formatLineError } from '../../../shared/trace/validate';

const multiStep: TraceInput = {
  v: 1,
  id: 'm1',
  task: 'fx_settle',
  tools: [{ name: 'DocRetrieve' }, { name: 'ExchangeRate' }, { name: 'Calculator' }, { name: 'Barcode' }],
  turns: [
    {
      request: 'How much in EUR?',
      steps: [
        {
          kind: 'call',
          calls: [
            { id: 'c1', name: 'DocRetrieve', arguments: { q: 'price' } },
            { id: 'c2', name: 'ExchangeRate', arguments: {} },
          ],
        },
        { kind: 'observation', callId: 'c1', name: 'DocRetrieve', content: 'price 12' },
        { kind: 'observation', callId: 'c2', name: 'ExchangeRate', content: 'rate 0.9' },
        { kind: 'call', calls: [{ id: 'c3', name: 'Calculator', arguments: { e: '12*0.9' } }] },
        { kind: 'observation', callId: 'c3', name: 'Calculator', content: '10.8' },
        { kind: 'call', calls: [{ id: 'c4', name: 'Calculator', arguments: { e: '10.8*1' } }] },
        { kind: 'observation', callId: 'c4', name: 'Calculator', content: '10.8' },
        { kind: 'call', calls: [{ id: 'c5', name: 'NotOnMenu' }] },
        { kind: 'observation', callId: 'c5', name: 'NotOnMenu', content: 'x' },
      ],
      answer: '10.8 EUR',
    },
  ],
};
const trace: Trace = TraceSchema.parse(multiStep);

describe('evidence removal', () => {
  it('removes a message calling several tools whole, with all its observations, and records the sharing', () => {
    const r = removeEvidence(trace, 0, 'DocRetrieve');
    expect(r.sharedWith).toEqual(['ExchangeRate']);
    expect(r.removed.map((x) => x.step)).toEqual([0, 1, 2]);
    const kinds = r.trace.turns[0]!.steps.map((s) =>
      s.kind === 'call' ? s.calls.map((c) => c.id).join() : s.kind === 'observation' ? `o:${s.callId}` : s.kind,
    );
    expect(kinds).toEqual(['c3', 'o:c3', 'c4', 'o:c4', 'c5', 'o:c5']);
  });

  it('removes repeated calls together and never the frozen answer or the menu', () => {
    const r = removeEvidence(trace, 0, 'Calculator');
    expect(r.removed.map((x) => x.step)).toEqual([3, 4, 5, 6]);
    expect(r.trace.turns[0]!.answer).toBe('10.8 EUR');
    expect(r.trace.tools).toEqual(trace.tools);
    expect(r.sharedWith).toEqual([]);
  });

  it('leaves the input trace unchanged', () => {
    removeEvidence(trace, 0, 'Calculator');
    expect(trace.turns[0]!.steps).toHaveLength(9);
  });

  it('counts an observation under its call, not under a name of its own that no call has (issue 39)', () => {
    // The log names the output "Barcode" (on the menu) but the call was to ExchangeRate: removing
    // "Barcode" would take nothing away, so it is not scoreable; ExchangeRate is, and takes the output with it.
    const renamed = TraceSchema.parse({
      ...multiStep,
      turns: [
        {
          ...multiStep.turns[0]!,
          steps: multiStep.turns[0]!.steps!.map((st) => (st.kind === 'observation' && st.callId === 'c2' ? { ...st, name: 'Barcode' } : st)),
        },
      ],
    });
    expect(scoreableTools(renamed, 0)).toEqual(['Calculator', 'DocRetrieve', 'ExchangeRate']);
    const r = removeEvidence(renamed, 0, 'ExchangeRate');
    expect(r.removed.length).toBeGreaterThan(0);
    expect(r.trace.turns[0]!.steps.some((st) => st.kind === 'observation' && st.callId === 'c2')).toBe(false);
    // An observation with no call at all gives no scoreable tool either.
    const orphan = TraceSchema.parse({
      ...multiStep,
      turns: [{ request: 'q', steps: [{ kind: 'observation', callId: 'zz', name: 'Barcode', content: '7' }], answer: '7' }],
    });
    expect(scoreableTools(orphan, 0)).toEqual([]);
  });

  it('scoreable = exposed and with evidence', () => {
    expect(scoreableTools(trace, 0)).toEqual(['Calculator', 'DocRetrieve', 'ExchangeRate']);
  });
});

describe('line removal and multi-turn', () => {
  const single = TraceSchema.parse({
    v: 1,
    id: 's1',
    tools: [{ name: 'A' }, { name: 'B' }, { name: 'C' }],
    turns: [
      {
        request: 'q1',
        steps: [
          {
            kind: 'lines',
            lines: [
              { tool: 'A', output: '1' },
              { tool: 'B', output: '2' },
            ],
          },
        ],
        answer: '1',
      },
      { request: 'q2', steps: [{ kind: 'lines', lines: [{ tool: 'C', output: '3' }] }], answer: '3' },
    ],
  });

  it('deletes only the tool line', () => {
    const r = removeLine(single, 0, 'A');
    expect(r.trace.turns[0]!.steps[0]).toEqual({ kind: 'lines', lines: [{ tool: 'B', output: '2' }] });
    expect(r.removed).toEqual([{ turn: 0, step: 0, line: 0 }]);
  });

  it('turn k sees evidence from earlier turns; later turns are untouched', () => {
    expect(scoreableTools(single, 0, 'line')).toEqual(['A', 'B']);
    expect(scoreableTools(single, 1, 'line')).toEqual(['A', 'B', 'C']);
    expect(scoreableToolsOfTrace(single, 'line')).toEqual(['A', 'B', 'C']);
    const r = removeLine(single, 0, 'C');
    expect(r.removed).toEqual([]);
    expect(r.trace.turns[1]).toBe(single.turns[1]);
  });

  it('re-execution delegates to the executor hook', async () => {
    const r = await removeByReexecution(single, 0, 'A', {
      reexecuteWithout: (t, turn, tool) => ({
        ...t,
        turns: t.turns.map((x, i) => (i === turn ? { ...x, steps: [{ kind: 'lines', lines: [{ tool: 'B', output: `error: ${tool} missing` }] }] } : x)),
      }),
    });
    expect(r.kind).toBe('reexecute');
    expect(r.trace.turns[0]!.steps[0]).toEqual({ kind: 'lines', lines: [{ tool: 'B', output: 'error: A missing' }] });
  });
});

describe('validation messages', () => {
  it('names the file, line and field', () => {
    const bad = parseTraceLine(JSON.stringify({ v: 1, id: 'x', turns: [{ request: 'q', answer: 5 }] }), 'a.jsonl', 7);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(formatLineError(bad.error)).toMatch(/^a\.jsonl:7: turns\[0\]\.answer: /);
    const json = parseTraceLine('{"v":1,', 'a.jsonl', 3);
    if (!json.ok) expect(formatLineError(json.error)).toMatch(/^a\.jsonl:3: not valid JSON/);
    const orphan = parseTraceLine(
      JSON.stringify({ v: 1, id: 'x', turns: [{ request: 'q', answer: 'a', steps: [{ kind: 'observation', callId: 'zz', name: 'A', content: '' }] }] }),
      'b',
      1,
    );
    expect(orphan.ok).toBe(false);
    if (!orphan.ok) expect(orphan.error.message).toMatch(/turns\[0\]\.steps\[0\]\.callId: .*"zz"/);
    const newer = parseTraceLine(JSON.stringify({ v: 2, id: 'x', turns: [] }), 'c', 1);
    if (!newer.ok) expect(newer.error.message).toMatch(/unsupported trace version/);
  });
});
