// Several tools removed together (the faithfulness check): the union of what each single removal takes.
import { describe, expect, it } from 'vitest';
import { TraceSchema, type Trace } from '../../../shared/trace/schema';
import {
  applyJointIntervention,
  removeEvidence,
  removeEvidenceOfTools,
  removeLine,
  removeLinesOfTools,
  removeToolsByReexecution,
} from '../../../shared/trace/interventions';
import { instantiate } from '../../../shared/benchmark/instance';
import { registryNames } from '../../../shared/benchmark/registry';
import { benchExecutor, buildBenchTrace, reexecuteWithout } from '../../../shared/benchmark/trace';

const multiStep: Trace = TraceSchema.parse({
  v: 1,
  id: 'm1',
  tools: [{ name: 'DocRetrieve' }, { name: 'ExchangeRate' }, { name: 'Calculator' }, { name: 'Barcode' }],
  turns: [
    {
      request: 'How much in EUR?',
      steps: [
        {
          kind: 'call',
          calls: [
            { id: 'c1', name: 'DocRetrieve', arguments: {} },
            { id: 'c2', name: 'ExchangeRate', arguments: {} },
          ],
        },
        { kind: 'observation', callId: 'c1', name: 'DocRetrieve', content: 'price 12' },
        { kind: 'observation', callId: 'c2', name: 'ExchangeRate', content: 'rate 0.9' },
        { kind: 'call', calls: [{ id: 'c3', name: 'Calculator', arguments: {} }] },
        { kind: 'observation', callId: 'c3', name: 'Calculator', content: '10.8' },
        {
          kind: 'lines',
          lines: [
            { tool: 'Barcode', output: 'none' },
            { tool: 'Calculator', output: '10.8' },
          ],
        },
      ],
      answer: '10.8 EUR',
    },
    {
      request: 'And in USD?',
      steps: [
        { kind: 'call', calls: [{ id: 'c4', name: 'Barcode', arguments: {} }] },
        { kind: 'observation', callId: 'c4', name: 'Barcode', content: 'x' },
      ],
      answer: '12',
    },
  ],
});

const stepKinds = (t: Trace, turn = 0): string[] =>
  t.turns[turn]!.steps.map((s) =>
    s.kind === 'call'
      ? s.calls.map((c) => c.id).join()
      : s.kind === 'observation'
        ? `o:${s.callId}`
        : s.kind === 'lines'
          ? `lines:${s.lines.map((l) => l.tool).join()}`
          : s.kind,
  );

describe('removeEvidenceOfTools', () => {
  it('removes the union of the single removals and reports co-called tools outside the set', () => {
    const joint = removeEvidenceOfTools(multiStep, 0, ['DocRetrieve', 'Calculator']);
    expect(stepKinds(joint.trace)).toEqual(['lines:Barcode']);
    expect(joint.tools).toEqual(['Calculator', 'DocRetrieve']);
    expect(joint.sharedWith).toEqual(['ExchangeRate']);
    expect(joint.kind).toBe('evidence');
    // The same steps as removing one after the other.
    const stepwise = removeEvidence(removeEvidence(multiStep, 0, 'DocRetrieve').trace, 0, 'Calculator');
    expect(joint.trace).toEqual(stepwise.trace);
  });

  it('a co-called tool inside the set is not reported as shared', () => {
    expect(removeEvidenceOfTools(multiStep, 0, ['DocRetrieve', 'ExchangeRate']).sharedWith).toEqual([]);
  });

  it('with one tool it is exactly removeEvidence; later turns and the input stay untouched', () => {
    const single = removeEvidence(multiStep, 0, 'Barcode');
    const joint = removeEvidenceOfTools(multiStep, 0, ['Barcode']);
    expect(joint.trace).toEqual(single.trace);
    expect(joint.removed).toEqual(single.removed);
    expect(joint.trace.turns[1]).toBe(multiStep.turns[1]);
    expect(multiStep.turns[0]!.steps).toHaveLength(6);
  });

  it('an empty set changes nothing', () => {
    const r = removeEvidenceOfTools(multiStep, 1, []);
    expect(r.removed).toEqual([]);
    expect(r.trace.turns).toEqual(multiStep.turns);
  });
});

describe('removeLinesOfTools', () => {
  it('removes every line of the tools and nothing else', () => {
    const r = applyJointIntervention(multiStep, 0, ['Barcode', 'Calculator'], 'line');
    expect(stepKinds(r.trace)).toEqual(['c1,c2', 'o:c1', 'o:c2', 'c3', 'o:c3', 'lines:']);
    expect(r.removed).toEqual([
      { turn: 0, step: 5, line: 0 },
      { turn: 0, step: 5, line: 1 },
    ]);
    expect(removeLinesOfTools(multiStep, 0, ['Barcode']).trace).toEqual(removeLine(multiStep, 0, 'Barcode').trace);
  });
});

describe('removeToolsByReexecution', () => {
  const registry = registryNames('exec', 15);
  const trace = buildBenchTrace(instantiate('exec', 'fx_settle', 0), { menu: registry, registry: 15, split: 'fit', answer: 'x' });
  const lines = (t: Trace): Map<string, string> => {
    const step = t.turns[0]!.steps.find((s) => s.kind === 'lines');
    return new Map(step?.kind === 'lines' ? step.lines.map((l) => [l.tool, l.output]) : []);
  };

  it('the benchmark re-executes once without all the tools (a chain missing two links)', async () => {
    const r = await removeToolsByReexecution(trace, 0, ['DocRetrieve', 'ExchangeRate'], benchExecutor);
    expect(r.kind).toBe('reexecute');
    expect(lines(r.trace).has('DocRetrieve')).toBe(false);
    expect(lines(r.trace).has('ExchangeRate')).toBe(false);
    expect(lines(r.trace).get('Calculator')).toMatch(/^NameError/);
    expect(r.trace.tools).toEqual(trace.tools);
    // Applying the single-tool hook twice would fail: the first rebuild no longer matches the menu.
    expect(() => reexecuteWithout(reexecuteWithout(trace, 0, 'DocRetrieve'), 0, 'ExchangeRate')).toThrow(/regenerate/);
  });

  it('an executor without a joint hook gets the tools one after the other', async () => {
    const seen: string[] = [];
    const r = await removeToolsByReexecution(multiStep, 0, ['Barcode', 'Calculator'], {
      reexecuteWithout: (t, turn, tool) => {
        seen.push(tool);
        return removeLine(t, turn, tool).trace;
      },
    });
    expect(seen).toEqual(['Barcode', 'Calculator']);
    expect(r.trace).toEqual(removeLinesOfTools(multiStep, 0, ['Barcode', 'Calculator']).trace);
    expect(r.removed).toEqual(removeEvidenceOfTools(multiStep, 0, ['Barcode', 'Calculator']).removed);
  });
});
