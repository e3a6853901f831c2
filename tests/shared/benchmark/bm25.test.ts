import { describe, expect, it } from 'vitest';
import { Bm25Index, bm25TaskRanking, bm25Tokens, toolDocument } from '../../../shared/selection/bm25';
import { baselineSpaces, meanStd } from '../../../shared/benchmark/baselines';
import { randomSpaces } from '../../../shared/selection/methods/random';
import { tieNote } from '../../../shared/selection/methods/bm25';
import { registryDefs } from '../../../shared/benchmark/registry';
import { generateBenchmark } from '../../../shared/benchmark/generate';

describe('BM25', () => {
  it('tokenizes names, descriptions and schemas into stems', () => {
    expect(bm25Tokens('TableQuery reads the rows of SensorAPI_readings')).toEqual(['table', 'query', 'read', 'row', 'sensor', 'api', 'reading']);
    const doc = toolDocument({
      name: 'ExchangeRate',
      description: 'Look up a rate.',
      parameters: { type: 'object', properties: { base: { type: 'string', description: 'Currency converted from' } } },
    });
    expect(doc).toContain('ExchangeRate');
    expect(doc).toContain('base');
    expect(doc).toContain('Currency converted from');
  });

  it('scores a matching document above others, and an unrelated query at zero', () => {
    const index = new Bm25Index([
      { id: 'a', text: 'convert temperature celsius fahrenheit' },
      { id: 'b', text: 'search the web for snippets' },
      { id: 'c', text: 'temperature sensor readings' },
    ]);
    const s = index.score('convert a temperature to fahrenheit');
    expect(s.get('a')!).toBeGreaterThan(s.get('c')!);
    expect(s.get('c')!).toBeGreaterThan(0);
    expect(s.get('b')).toBe(0);
    expect([...index.score('zebra').values()].every((v) => v === 0)).toBe(true);
  });

  it('ranks the obvious tool first for benchmark families, ties by name', () => {
    const registry = registryDefs('bm', 15);
    const requests = (family: string) =>
      generateBenchmark({ seed: 'bm', fit: 10, eval: 0 })
        .filter((t) => t.task === family)
        .map((t) => t.turns[0]!.request);
    expect(bm25TaskRanking(registry, requests('table_total'))[0]!.tool).toBe('TableQuery');
    expect(bm25TaskRanking(registry, requests('sensor_mean'))[0]!.tool).toBe('SensorAPI');
    const none = bm25TaskRanking(registry, ['zebra']);
    expect(none.map((r) => r.tool)).toEqual(registry.map((t) => t.name).sort());
  });
});

describe('baseline spaces', () => {
  const registry = registryDefs('b', 15);
  it('keep-all, no-tools, random draws of size K, BM25 top-K', async () => {
    const spaces = await baselineSpaces({
      task: 'fx_settle',
      registry,
      k: 3,
      fittingRequests: ['Invoice INV-1 in JPY: settle in EUR at the exchange rate'],
      seed: 'b',
      draws: 4,
    });
    const byName = Object.fromEntries(spaces.map((s) => [s.name, s]));
    expect(byName['keep-all']!.menus).toEqual([registry.map((t) => t.name)]);
    expect(byName['no-tools']).toEqual({ name: 'no-tools', k: 0, menus: [[]] });
    expect(byName['random']!.menus).toHaveLength(4);
    for (const m of byName['random']!.menus) expect(new Set(m).size).toBe(3);
    expect(byName['bm25']!.menus[0]).toHaveLength(3);
    expect(byName['bm25']!.menus[0]).toContain('ExchangeRate');
  });

  it('random draws are seeded', () => {
    const names = registry.map((t) => t.name);
    expect(randomSpaces('t', names, 4, 's', 3)).toEqual(randomSpaces('t', names, 4, 's', 3));
    expect(randomSpaces('t', names, 4, 's', 3)).not.toEqual(randomSpaces('t', names, 4, 'other', 3));
  });

  it('mean ± std', () => {
    expect(meanStd([0.5, 0.7])).toEqual({ mean: 0.6, std: expect.closeTo(0.1, 12) });
  });
});

describe('BM25 ties at the budget', () => {
  it('says when the last kept places are decided by name, and is silent otherwise', () => {
    const ranked = [
      { tool: 'A', mean: 2 },
      { tool: 'B', mean: 0 },
      { tool: 'C', mean: 0 },
      { tool: 'D', mean: 0 },
    ];
    expect(tieNote(ranked, 2)).toBe('3 tools tie at BM25 0.00 for the last place: kept by name (alphabetical), not by match');
    expect(tieNote(ranked, 3)).toBe('3 tools tie at BM25 0.00 for the last 2 places: kept by name (alphabetical), not by match');
    expect(tieNote(ranked, 1)).toBeUndefined();
    expect(tieNote(ranked, 4)).toBeUndefined();
  });
});
