import { describe, expect, it } from 'vitest';
import { AUTHORED_TOOLS, CHAIN_TOOLS, DISTRACTOR_TOOLS } from '../../../shared/benchmark/tools';
import { REGISTRY_SIZES, registryDefs, registryNames } from '../../../shared/benchmark/registry';
import { instantiate } from '../../../shared/benchmark/instance';
import { executeMenu } from '../../../shared/benchmark/executor';
import { FAMILIES } from '../../../shared/benchmark/families/index';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';

describe('registry', () => {
  it('has seven chain tools and the eight named distractors', () => {
    expect(CHAIN_TOOLS).toEqual(['TableQuery', 'Calculator', 'SensorAPI', 'CalendarAPI', 'DocRetrieve', 'Translate', 'ExchangeRate']);
    expect(DISTRACTOR_TOOLS).toEqual(['UnitConvert', 'TempConvert', 'CurrencyConvert', 'DurationCalc', 'Solver', 'GoogleSearch', 'Summarize', 'Barcode']);
    expect(registryNames('s', 15)).toEqual([...AUTHORED_TOOLS].sort());
  });

  it('grows 15 → 30 → 60 → 120 → 240 with seeded synthetic distractors, each size extending the last', () => {
    let previous: string[] = [];
    for (const size of REGISTRY_SIZES) {
      const names = registryNames('grow', size);
      expect(names).toHaveLength(size);
      expect(new Set(names).size).toBe(size);
      for (const n of previous) expect(names).toContain(n);
      previous = names;
    }
    expect(registryNames('grow', 60)).not.toEqual(registryNames('other', 60));
    expect(registryNames('grow', 60)).toEqual(registryNames('grow', 60));
    expect(() => registryNames('grow', 14)).toThrow(/between 15 and/);
  });

  it('every tool has a description and a JSON-Schema object of parameters', () => {
    for (const def of registryDefs('defs', 240)) {
      expect(def.description && def.description.length).toBeGreaterThan(10);
      expect(def.parameters).toMatchObject({ type: 'object', properties: expect.any(Object), required: expect.any(Array) });
    }
  });

  it('synthetic distractors (e.g. TaxCalc) run on any request and return a plausible number from the scene', () => {
    const names = registryNames('syn', 240).filter((n) => !(AUTHORED_TOOLS as readonly string[]).includes(n));
    const inst = instantiate('syn', 'table_total', 0);
    const lines = executeMenu(inst, names);
    for (const l of lines) {
      expect(l.output).toMatch(/^-?\d+(\.\d{1,2})?$/);
      expect(Number(l.output)).toBeGreaterThanOrEqual(0);
    }
    // Behaviour follows from the name: another scene gives another number for most tools.
    const other = executeMenu(instantiate('syn', 'table_total', 1), names);
    expect(other.filter((l, i) => l.output !== lines[i]!.output).length).toBeGreaterThan(names.length / 2);
  });

  it('the families follow Table 4', () => {
    expect(FAMILY_NAMES).toHaveLength(10);
    expect(Object.fromEntries(FAMILY_NAMES.map((f) => [f, FAMILIES[f].chainTools]))).toEqual({
      table_total: ['TableQuery', 'Calculator'],
      table_filter: ['TableQuery', 'Calculator'],
      sensor_mean: ['SensorAPI', 'Calculator'],
      sensor_convert: ['SensorAPI', 'Calculator'],
      schedule_gap: ['CalendarAPI', 'Calculator'],
      doc_two_facts: ['DocRetrieve', 'Calculator'],
      translate_fact: ['DocRetrieve', 'Translate'],
      fx_settle: ['DocRetrieve', 'ExchangeRate', 'Calculator'],
      compute_only: ['Calculator'],
      no_tool: [],
    });
  });

  it('distractors are executable on unsuitable input and answer in their usual format', () => {
    const lines = new Map(executeMenu(instantiate('d', 'translate_fact', 0), [...DISTRACTOR_TOOLS]).map((l) => [l.tool, l.output]));
    expect(lines.get('UnitConvert')).toMatch(/km = .* mi/);
    expect(lines.get('TempConvert')).toMatch(/°C = .* °F/);
    expect(lines.get('CurrencyConvert')).toMatch(/USD = .* EUR/);
    expect(lines.get('GoogleSearch')).toMatch(/^3 results for "/);
    expect(lines.get('Summarize')).toMatch(/^Summary: /);
    expect(lines.get('Barcode')).toBe('no barcode found in the input');
  });
});
