// Mean and spread across seeds (`lots demo --seeds N`), from seed points.
import { describe, expect, it } from 'vitest';
import {
  fixedKSeedSummary,
  formatFixedKSeedTable,
  formatSeedTable,
  seedList,
  seedPoint,
  seedsHeadline,
  seedSummary,
  spread,
  type SeedPoint,
} from '../../../shared/benchmark/seeds';
import { comparisonRow, evalResult } from './comparison-rows';

const point = (seed: string, lots: number, all: number, d: number, lo?: number, hi?: number): SeedPoint => ({
  seed,
  project: seed === '0' ? '.' : `seeds/seed-${seed}`,
  accuracy: { lots, 'keep-all': all },
  lotsMinus: { 'keep-all': { difference: d, n: 40, ...(lo !== undefined && hi !== undefined ? { lo, hi } : {}) } },
});

describe('seeds', () => {
  it('lists the given seed, then the next integers (or numbered suffixes for a word)', () => {
    expect(seedList('0', 3)).toEqual(['0', '1', '2']);
    expect(seedList('41', 2)).toEqual(['41', '42']);
    expect(seedList('audit', 3)).toEqual(['audit', 'audit.1', 'audit.2']);
    expect(seedList('7', 1)).toEqual(['7']);
    expect(() => seedList('0', 0)).toThrow(/--seeds must be a positive integer, got 0/);
  });

  it('spread is the mean, the sample sd (n − 1) and the range', () => {
    expect(spread([0.5, 0.7, 0.9])).toEqual({ mean: expect.closeTo(0.7, 12), sd: expect.closeTo(0.2, 12), min: 0.5, max: 0.9, seeds: 3 });
    expect(spread([0.4]).sd).toBeUndefined();
  });

  it('summarises each method across seeds and keeps each seed’s paired interval beside it', () => {
    const points = [point('0', 0.6, 0.3, 0.3, 0.1, 0.5), point('1', 0.5, 0.35, 0.15, -0.05, 0.35), point('2', 0.55, 0.25, 0.3)];
    const rows = seedSummary(points);
    expect(rows.map((r) => r.method)).toEqual(['lots', 'keep-all']);
    const keepAll = rows.find((r) => r.method === 'keep-all')!;
    expect(keepAll.accuracy.mean).toBeCloseTo(0.3, 12);
    expect(keepAll.lotsMinus!.mean).toBeCloseTo(0.25, 12);
    expect(keepAll.lotsMinus!.sd).toBeCloseTo(Math.sqrt((0.05 ** 2 * 2 + 0.1 ** 2) / 2), 12);
    expect(keepAll.intervals).toEqual([{ seed: '0', lo: 0.1, hi: 0.5 }, { seed: '1', lo: -0.05, hi: 0.35 }, undefined]);
    expect(rows.find((r) => r.method === 'lots')!.lotsMinus).toBeUndefined();
    const text = formatSeedTable(points);
    expect(text).toContain('across 3 seeds (0, 1, 2)');
    expect(text).not.toContain('of 3 seeds');
    expect(text).toMatch(/keep-all +0\.30 ± 0\.05 \[0\.25, 0\.35\] +\+0\.25 ± 0\.09 +\+0\.30 \[\+0\.10, \+0\.50\] +\+0\.15 \[−0\.05, \+0\.35\] +\+0\.30/);
  });

  it('says how many seeds a method rests on where it was evaluated in only some of them', () => {
    const points = [point('0', 0.6, 0.3, 0.3), point('1', 0.5, 0.35, 0.15), point('2', 0.55, 0.25, 0.3)];
    points[0]!.accuracy['oracle'] = 0.7;
    points[1]!.accuracy['oracle'] = 0.8;
    const oracle = seedSummary(points).find((r) => r.method === 'oracle')!;
    expect(oracle.accuracy).toMatchObject({ mean: expect.closeTo(0.75, 12), seeds: 2 });
    expect(formatSeedTable(points)).toMatch(/oracle +0\.75 ± 0\.07 \[0\.70, 0\.80\] \(2 of 3 seeds\)/);
    expect(formatSeedTable(points)).not.toMatch(/keep-all .*of 3 seeds/);
    // In one seed only (its own paired difference too): the value alone, no "± 0.00" that reads as agreement.
    points[0]!.accuracy['lots-deferred'] = 0.5;
    points[0]!.lotsMinus['lots-deferred'] = { difference: 0.1, lo: 0.05, hi: 0.15, n: 40 };
    const line = formatSeedTable(points)
      .split('\n')
      .find((l) => l.startsWith('lots-deferred'))!;
    expect(line).toMatch(/^lots-deferred +0\.50 \(1 of 3 seeds\) +\+0\.10 \(1 of 3 seeds\) +\+0\.10 \[\+0\.05, \+0\.15\] +– +–$/);
  });

  it('the headline says the first figures are one seed’s and gives the mean over the seeds', () => {
    const points = [point('0', 0.35, 0.25, 0.1), point('1', 0.2, 0.275, -0.075), point('2', 0.3, 0.275, 0.025)];
    expect(seedsHeadline(points)).toBe('That is seed 0; over the 3 seeds LOTS answers 28% ± 8% and keep-all 27% ± 1% (LOTS − keep-all +2 ± 9 points).');
    expect(seedsHeadline(points.slice(0, 1))).toBeUndefined();
    expect(seedsHeadline(points.map((p) => ({ ...p, accuracy: { lots: p.accuracy['lots']! } })))).toBeUndefined();
    // Keep-all evaluated in one seed only: its value alone and how many seeds it rests on, no "± 0%".
    const one = points.map((p, i) => (i === 0 ? p : { ...p, accuracy: { lots: p.accuracy['lots']! }, lotsMinus: {} }));
    expect(seedsHeadline(one)).toBe(
      'That is seed 0; over the 3 seeds LOTS answers 28% ± 8% and keep-all 25% (1 of 3 seeds) (LOTS − keep-all +10 points (1 of 3 seeds)).',
    );
  });

  it("Table 9 over seeds: each seed's point keeps LOTS's top K minus each fixed-K ranking, and the seeds are summarised", () => {
    // One family, four requests; LOTS chose K = 3 (neither fixed K). Seed 0 has Random with 5 draws.
    const rows = (lotsK2: number[], denseK2: number[], draws?: number) => [
      comparisonRow(
        'a',
        [
          evalResult('lots', [1, 1, 1, 0]),
          evalResult('keep-all', [0, 1, 0, 0]),
          evalResult('lots-k2', lotsK2),
          evalResult('lots-k4', [1, 1, 1, 1]),
          evalResult('dense-k2', denseK2),
          ...(draws ? [{ ...evalResult('random-k2', [0, 0, 0, 0]), draws }] : []),
        ],
        3,
      ),
    ];
    const points = [seedPoint('0', '.', rows([1, 1, 1, 0], [0, 0, 1, 0], 5)), seedPoint('1', 'seeds/seed-1', rows([1, 1, 0, 0], [1, 1, 0, 0]))];
    // The fixed-K accuracies are in the point; the difference is against LOTS at the same K, not at its own.
    expect(points[0]!.accuracy).toMatchObject({ 'lots-k2': 0.75, 'dense-k2': 0.25, 'random-k2': 0 });
    expect(points[0]!.fixedK!['dense-k2']).toMatchObject({ difference: 0.5, n: 4 });
    expect(points[0]!.fixedK!['random-k2']).toMatchObject({ difference: 0.75, draws: 5 });
    expect(points[1]!.fixedK!['dense-k2']!.difference).toBe(0);
    expect(points[1]!.fixedK!['random-k2']).toBeUndefined();
    // The main seeds table is unchanged by them: no fixed-K ranking among its methods.
    expect(seedSummary(points).map((r) => r.method)).toEqual(['lots', 'keep-all', 'lots-k2', 'lots-k4']);

    const summary = fixedKSeedSummary(points);
    expect(summary.map((r) => r.method)).toEqual(['lots-k2', 'lots-k4', 'dense-k2', 'random-k2']);
    const dense = summary.find((r) => r.method === 'dense-k2')!;
    expect(dense.accuracy.mean).toBeCloseTo(0.375, 12);
    expect(dense.lotsMinus!.mean).toBeCloseTo(0.25, 12);
    expect(summary.find((r) => r.method === 'lots-k2')!.lotsMinus).toBeUndefined();

    const text = formatFixedKSeedTable(points);
    expect(text).toMatch(/^Every ranking at the same fixed K \(the paper's Table 9\) across 2 seeds \(0, 1\)/);
    expect(text).toMatch(/^lots-k2 +0\.63 ± 0\.18 \[0\.50, 0\.75\] +– +– +–$/m);
    expect(text).toMatch(/^dense-k2 +0\.38 ± 0\.18 \[0\.25, 0\.50\] +\+0\.25 ± 0\.35 +\+0\.50.* +\+0\.00/m);
    // Random in one seed only, with its draws: its value alone and how many seeds it rests on.
    expect(text).toMatch(/^random-k2 \(5 draws\) +0\.00 \(1 of 2 seeds\) +\+0\.75 \(1 of 2 seeds\) +\+0\.75.* +–$/m);
    // A run without fixed-K rows has no such table.
    expect(formatFixedKSeedTable([point('0', 0.3, 0.2, 0.1), point('1', 0.3, 0.2, 0.1)])).toBe('');
  });
});
