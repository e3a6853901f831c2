import { describe, expect, it } from 'vitest';
import { executeMenu } from '../../../shared/benchmark/executor';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { instantiate } from '../../../shared/benchmark/instance';
import { presentationOrder, registryNames } from '../../../shared/benchmark/registry';
import { benchExecutor, buildBenchTrace, reexecuteWithout } from '../../../shared/benchmark/trace';

import { removeByReexecution, scoreableTools } from '../../../shared/trace/interventions';
import { validateTrace } from '../../../shared/trace/validate';
import type { Trace } from '../../../shared/trace/schema';
import { linesOf } from './helpers';
import { ExpectedError } from '../../../shared/api/errors';

const registry = registryNames('exec', 15);
const traceOf = (family: Parameters<typeof instantiate>[1], index = 0, menu = registry): Trace =>
  buildBenchTrace(instantiate('exec', family, index), { menu, registry: 15, split: 'fit', answer: 'x' });

function changedLines(before: Trace, after: Trace): string[] {
  const a = linesOf(before);
  const b = linesOf(after);
  return [...a.keys()].filter((k) => a.get(k) !== b.get(k)).sort();
}

describe('executor (single-step protocol)', () => {
  it('writes one line per served tool, in dependency order, in a valid native trace', () => {
    const t = traceOf('table_total');
    const step = t.turns[0]!.steps[0]!;
    expect(step.kind).toBe('lines');
    const tools = step.kind === 'lines' ? step.lines.map((l) => l.tool) : [];
    expect(tools).toEqual(presentationOrder(registry, 'dependency'));
    // The Calculator comes after every output it computes on; the rest stays in code-unit order.
    expect(tools.indexOf('Calculator')).toBeGreaterThan(
      Math.max(...['CalendarAPI', 'DocRetrieve', 'ExchangeRate', 'SensorAPI', 'TableQuery'].map((n) => tools.indexOf(n))),
    );
    expect(tools.filter((n) => n !== 'Calculator')).toEqual([...registry].sort().filter((n) => n !== 'Calculator'));
    expect(t.tools.map((d) => d.name)).toEqual(tools);
    expect(validateTrace(JSON.parse(JSON.stringify(t)), 'x.jsonl', 1).ok).toBe(true);
    expect(t).toMatchObject({
      task: 'table_total',
      split: 'fit',
      meta: { bench: { v: 1, seed: 'exec', family: 'table_total', index: 0, registry: 15, order: 'dependency' } },
    });
    expect(scoreableTools(t, 0, 'line')).toEqual([...registry].sort());
  });

  it('is deterministic given the request and the menu, whatever order the menu is given in', () => {
    const inst = instantiate('exec', 'fx_settle', 3);
    expect(executeMenu(inst, [...registry].reverse())).toEqual(executeMenu(inst, registry));
    expect(executeMenu(instantiate('exec', 'fx_settle', 3), registry)).toEqual(executeMenu(inst, registry));
  });

  it('truncates every line to 1,500 characters', () => {
    const inst = instantiate('exec', 'table_total', 0);
    inst.chain[0]!.output = 'x'.repeat(4000);
    const lines = executeMenu(inst, ['TableQuery']);
    expect(lines[0]!.output).toHaveLength(1500);
  });

  it('an empty menu gives a trace without tool lines', () => {
    const t = traceOf('no_tool', 0, []);
    expect(t.tools).toEqual([]);
    expect(t.turns[0]!.steps).toEqual([]);
  });
});

describe('re-execution without a tool', () => {
  it('removing the upstream tool makes the downstream Calculator return a NameError; nothing else changes', () => {
    const t = traceOf('table_total');
    const r = reexecuteWithout(t, 0, 'TableQuery');
    expect(linesOf(r).has('TableQuery')).toBe(false);
    expect(linesOf(r).get('Calculator')).toBe("NameError: name 'rows' is not defined");
    expect(changedLines(t, r)).toEqual(['Calculator', 'TableQuery']);
    expect(r.tools).toEqual(t.tools); // documentation unchanged
    expect(r.turns[0]!.answer).toBe(t.turns[0]!.answer);
  });

  it('removing a downstream or unrelated tool removes only its line', () => {
    const t = traceOf('sensor_mean');
    for (const tool of ['Calculator', 'Barcode', 'TableQuery']) {
      const r = reexecuteWithout(t, 0, tool);
      expect(changedLines(t, r)).toEqual([tool]);
    }
  });

  it('fx_settle: each of the two upstream tools is needed by the Calculator', () => {
    const t = traceOf('fx_settle');
    expect(linesOf(reexecuteWithout(t, 0, 'DocRetrieve')).get('Calculator')).toBe("NameError: name 'passages' is not defined");
    expect(linesOf(reexecuteWithout(t, 0, 'ExchangeRate')).get('Calculator')).toBe("NameError: name 'rate' is not defined");
    expect(changedLines(t, reexecuteWithout(t, 0, 'ExchangeRate'))).toEqual(['Calculator', 'ExchangeRate']);
  });

  it('translate_fact: removing DocRetrieve breaks Translate', () => {
    const t = traceOf('translate_fact');
    const r = reexecuteWithout(t, 0, 'DocRetrieve');
    expect(linesOf(r).get('Translate')).toBe("NameError: name 'passages' is not defined");
    expect(changedLines(t, r)).toEqual(['DocRetrieve', 'Translate']);
  });

  it('a chain tool served without its upstream returns the error in the first place', () => {
    const t = traceOf('schedule_gap', 0, ['Calculator', 'UnitConvert']);
    expect(linesOf(t).get('Calculator')).toBe("NameError: name 'events' is not defined");
  });

  it('works through the interventions hook and needs nothing but the trace', async () => {
    const t = JSON.parse(JSON.stringify(traceOf('doc_two_facts', 5))) as Trace;
    const res = await removeByReexecution(t, 0, 'DocRetrieve', benchExecutor);
    expect(res.kind).toBe('reexecute');
    expect(linesOf(res.trace).get('Calculator')).toBe("NameError: name 'passages' is not defined");
    expect(res.removed).toEqual([{ turn: 0, step: 0, line: presentationOrder(registry, 'dependency').indexOf('DocRetrieve') }]);
  });

  it('a trace served in the earlier code-unit order re-executes in that order (old projects keep working)', () => {
    const t = buildBenchTrace(instantiate('exec', 'table_total', 0), { menu: registry, registry: 15, split: 'fit', answer: 'x', order: 'code-unit' });
    delete (t.meta!.bench as { order?: string }).order; // as projects made before the field existed
    const r = reexecuteWithout(t, 0, 'TableQuery');
    expect([...linesOf(r).keys()]).toEqual([...registry].sort().filter((n) => n !== 'TableQuery'));
    expect(linesOf(r).get('Calculator')).toBe("NameError: name 'rows' is not defined");
  });

  it('refuses a trace whose lines this version of the benchmark would not produce', () => {
    const t = traceOf('table_total');
    const step = t.turns[0]!.steps[0]!;
    if (step.kind === 'lines') step.lines[0] = { ...step.lines[0]!, output: 'tampered' };
    expect(() => reexecuteWithout(t, 0, 'TableQuery')).toThrow(ExpectedError);
    expect(() => reexecuteWithout(t, 0, 'TableQuery')).toThrow(/regenerate the project/);
  });

  it('refuses a trace that did not come from the benchmark', () => {
    const t: Trace = { v: 1, id: 'user-1', tools: [], turns: [{ request: 'hi', steps: [], answer: 'x' }] };
    expect(() => reexecuteWithout(t, 0, 'Calculator')).toThrow(/not generated by the built-in benchmark/);
  });
});

describe('generated benchmark', () => {
  it('is identical for the same seed and differs for another seed', () => {
    const a = JSON.stringify(generateBenchmark({ seed: 's1', fit: 3, eval: 2 }));
    expect(JSON.stringify(generateBenchmark({ seed: 's1', fit: 3, eval: 2 }))).toBe(a);
    expect(JSON.stringify(generateBenchmark({ seed: 's2', fit: 3, eval: 2 }))).not.toBe(a);
  });

  it('adding evaluation requests never changes the fitting ones', () => {
    const small = generateBenchmark({ seed: 's1', fit: 3, eval: 1 }).filter((t) => t.split === 'fit');
    const large = generateBenchmark({ seed: 's1', fit: 3, eval: 9 }).filter((t) => t.split === 'fit');
    expect(large).toEqual(small);
  });

  it('has fit/eval splits per family, task labels, gold on the turn, empty or gold answers', () => {
    const traces = generateBenchmark({ seed: 's', families: ['fx_settle', 'no_tool'], fit: 2, eval: 3 });
    expect(traces.map((t) => `${t.task}:${t.split}`)).toEqual([
      'fx_settle:fit',
      'fx_settle:fit',
      'fx_settle:eval',
      'fx_settle:eval',
      'fx_settle:eval',
      'no_tool:fit',
      'no_tool:fit',
      'no_tool:eval',
      'no_tool:eval',
      'no_tool:eval',
    ]);
    expect(traces.every((t) => t.turns[0]!.answer === '' && t.turns[0]!.gold)).toBe(true);
    const oracle = generateBenchmark({ seed: 's', families: ['fx_settle'], fit: 1, eval: 0, answers: 'gold' });
    expect(oracle[0]!.turns[0]!.answer).toBe(oracle[0]!.turns[0]!.gold);
  });

  it('rejects an empty family selection and bad counts', () => {
    expect(() => generateBenchmark({ families: [] })).toThrow(/no families selected/);
    expect(() => generateBenchmark({ fit: -1 })).toThrow(/--fit/);
  });
});
