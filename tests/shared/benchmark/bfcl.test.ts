// The pure parts of the BFCL protocol (shared/benchmark/bfcl.ts); the same functions run on the official
// package's data in tests/engine/bfcl/harness.test.ts.
import { describe, expect, it } from 'vitest';
import {
  callName,
  fitGoldFrequencyRanking,
  goldCoverage,
  goldResultEntry,
  groupByPrimaryClass,
  primaryClassOf,
  type BfclEntry,
} from '../../../shared/benchmark/bfcl';

const entry = (n: number, classes: string[]): BfclEntry => ({
  id: `multi_turn_base_${n}`,
  question: [[{ role: 'user', content: `request ${n}` }]],
  initial_config: {},
  involved_classes: classes,
});

describe('BFCL protocol', () => {
  it('reads the function a call string calls', () => {
    expect(callName("cd(folder='document')")).toBe('cd');
    expect(callName(' sort ( "a" )')).toBe('sort');
    expect(() => callName('not a call')).toThrow(/not a call string/);
  });

  it('takes the primary class as the one of the four a record involves, and says so when there is not exactly one', () => {
    expect(primaryClassOf(entry(0, ['TwitterAPI', 'GorillaFileSystem']))).toBe('GorillaFileSystem');
    expect(() => primaryClassOf(entry(1, ['TwitterAPI', 'MathAPI']))).toThrow(/multi_turn_base_1: .*holds none of the primary classes/);
    expect(() => primaryClassOf(entry(2, ['TradingBot', 'TravelAPI']))).toThrow(/holds TradingBot and TravelAPI/);
  });

  it('splits each class in the dataset order (by id number, not by string), the first 10 to fit', () => {
    const list = [...Array(12).keys()].reverse().map((n) => entry(n, ['TravelAPI']));
    const travel = groupByPrimaryClass(list).find((g) => g.cls === 'TravelAPI')!;
    expect(travel.fit.map((e) => e.id)).toEqual([...Array(10).keys()].map((n) => `multi_turn_base_${n}`));
    expect(travel.evaluate.map((e) => e.id)).toEqual(['multi_turn_base_10', 'multi_turn_base_11']);
  });

  it('measures the gold calls and the whole records a top K covers', () => {
    const answers = [
      { id: 'a', ground_truth: [['cd(x=1)', 'ls()'], ['cd(x=2)']] },
      { id: 'b', ground_truth: [['grep(p=1)']] },
    ];
    expect(goldCoverage(['cd', 'ls', 'grep'], answers, [1, 2, 3])).toEqual([
      { k: 1, calls: 2 / 4, records: 0 },
      { k: 2, calls: 3 / 4, records: 1 / 2 },
      { k: 3, calls: 1, records: 1 },
    ]);
  });

  it('ranks by gold-call frequency in the fitting records, ties by name, unknown functions ignored', () => {
    const tools = ['b', 'a', 'c'].map((name) => ({ name }));
    expect(fitGoldFrequencyRanking(tools, [{ id: 'x', ground_truth: [['c()', 'c()', 'a()'], ['zzz()']] }])).toEqual(['c', 'a', 'b']);
  });

  it('refuses a gold entry whose observations do not answer every call', () => {
    const e = entry(0, ['GorillaFileSystem']);
    expect(() => goldResultEntry(e, { id: e.id, ground_truth: [['ls()', 'pwd()']] }, [['x']])).toThrow(/turn 0: 2 gold calls but 1 observations/);
  });
});
