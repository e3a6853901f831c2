// Several seeds of one benchmark (`lots demo --seeds N`): seed i ≥ 1 redraws every scene and request
// (the fitting draw and the evaluation requests) and Random's draws. Each seed's results are kept as a
// point (per method: accuracy over the families; per baseline: LOTS's pooled paired difference with its
// interval within that seed), and the points are summarised as mean and spread across seeds.
import type { SeedPoint } from '../project/demo';
import { SELECTION_METHOD_IDS } from '../selection/registry';
import { TABLE_COLUMNS, alignColumns, type ComparisonRow } from './comparison-table';
import { FIXED_K_RANKINGS, FIXED_KS, fixedKTable } from './fixed-k-table';
import { formatSigned as signed } from './paired';
import { pairedTable } from './paired-table';
import { formatFixed, percent, plural } from '../text';

export type { SeedPoint };

/** The seeds of a run: the given one, then the next integers (or `<seed>.1`, `<seed>.2` … for a word). */
export function seedList(base: string, count: number): string[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`--seeds must be a positive integer, got ${count}`);
  const numeric = /^\d+$/.test(base);
  return Array.from({ length: count }, (_, i) => (i === 0 ? base : numeric ? String(Number(base) + i) : `${base}.${i}`));
}

/** One seed's point from its comparison rows. */
export function seedPoint(seed: string, project: string, rows: readonly ComparisonRow[]): SeedPoint {
  const accuracy: Record<string, number> = {};
  // Every method, the fixed-K rankings too (the seeds' Table 9 reads their accuracy from here).
  for (const name of SELECTION_METHOD_IDS) {
    const evals = rows.map((r) => r.results.get(name)?.eval).filter((b) => b !== undefined);
    if (evals.length > 0) accuracy[name] = evals.reduce((a, b) => a + b.accuracy, 0) / evals.length;
  }
  const lotsMinus: SeedPoint['lotsMinus'] = {};
  for (const a of pairedTable(rows).against) {
    const d = a.accuracy.pooled;
    lotsMinus[a.baseline] = { difference: d.difference, ...(d.interval ? { lo: d.interval.lo, hi: d.interval.hi } : {}), n: d.n };
  }
  const fixedK: NonNullable<SeedPoint['fixedK']> = {};
  for (const row of fixedKTable(rows)?.rows ?? []) {
    for (const k of FIXED_KS) {
      const c = row.cells[k];
      if (!c) continue;
      const d = c.difference;
      fixedK[`${row.baseline}-k${k}`] = {
        difference: d.difference,
        ...(d.interval ? { lo: d.interval.lo, hi: d.interval.hi } : {}),
        n: d.n,
        ...(c.draws !== undefined ? { draws: c.draws } : {}),
      };
    }
  }
  return { seed, project, accuracy, lotsMinus, ...(Object.keys(fixedK).length > 0 ? { fixedK } : {}) };
}

export interface Spread {
  mean: number;
  /** Sample standard deviation across seeds; undefined with one seed (one value has no spread). */
  sd: number | undefined;
  min: number;
  max: number;
  seeds: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new RangeError('no values to summarise');
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : undefined;
  return { mean, sd, min: Math.min(...values), max: Math.max(...values), seeds: values.length };
}

/** "mean ± sd" and the range, or the mean alone where one seed has it (one value has no spread): the one
 * rule the CLI's seed table, the headline and the Demo view print a spread by. */
export function spreadText(s: Spread, mean: (x: number) => string, sd: (x: number) => string = mean, range: (s: Spread) => string = () => ''): string {
  return s.sd === undefined ? mean(s.mean) : `${mean(s.mean)} ± ${sd(s.sd)}${range(s)}`;
}

export interface SeedSummaryRow {
  method: string;
  accuracy: Spread;
  /** LOTS minus this method across seeds; absent for LOTS itself or without paired outcomes. */
  lotsMinus?: Spread;
  /** The within-seed paired intervals, in seed order (undefined where a seed had none). */
  intervals: Array<{ seed: string; lo: number; hi: number } | undefined>;
}

type Difference = SeedPoint['lotsMinus'][string];

/** Per method: mean and spread of accuracy and of LOTS's paired difference across the seeds. `methods` and
 * `difference` pick the table: by default the comparison table's methods and LOTS (its label-chosen K)
 * minus each; `fixedKSeedSummary` gives Table 9's. */
export function seedSummary(
  points: readonly SeedPoint[],
  methods: readonly string[] = TABLE_COLUMNS,
  difference: (p: SeedPoint, method: string) => Difference | undefined = (p, method) => p.lotsMinus[method],
): SeedSummaryRow[] {
  return methods.flatMap((method) => {
    const acc = points.map((p) => p.accuracy[method]).filter((x) => x !== undefined);
    if (acc.length === 0) return [];
    const diffs = points.map((p) => difference(p, method)).filter((d) => d !== undefined);
    return [
      {
        method,
        accuracy: spread(acc),
        ...(diffs.length > 0 ? { lotsMinus: spread(diffs.map((d) => d.difference)) } : {}),
        intervals: points.map((p) => {
          const d = difference(p, method);
          return d?.lo !== undefined && d.hi !== undefined ? { seed: p.seed, lo: d.lo, hi: d.hi } : undefined;
        }),
      },
    ];
  });
}

/** The headline's second sentence for a run of several seeds, which says the first was one seed's:
 * "That is seed 0; over the 3 seeds LOTS answers 28% ± 8% and keep-all 27% ± 10% (LOTS − keep-all
 * +2 ± 9 points)." Undefined for one seed or without LOTS and keep-all in the seeds. */
export function seedsHeadline(points: readonly SeedPoint[]): string | undefined {
  if (points.length < 2) return undefined;
  const rows = seedSummary(points);
  const lots = rows.find((r) => r.method === 'lots');
  const all = rows.find((r) => r.method === 'keep-all');
  if (!lots || !all) return undefined;
  const pct = (s: Spread) => `${spreadText(s, percent)}${partialSeeds(s, points.length)}`;
  const points100 = (s: Spread) =>
    `${spreadText(
      s,
      (x) => signed(x * 100, 0),
      (x) => String(Math.round(x * 100)),
    )} points${partialSeeds(s, points.length)}`;
  const gap = all.lotsMinus ? ` (LOTS − keep-all ${points100(all.lotsMinus)})` : '';
  return `That is seed ${points[0]!.seed}; over the ${points.length} seeds LOTS answers ${pct(lots.accuracy)} and keep-all ${pct(all.accuracy)}${gap}.`;
}

/** " (2 of 3 seeds)" after a spread that rests on fewer seeds than the run has (a method evaluated in only
 * some of the seeds' projects), so a mean over two seeds is not read as one over three; "" otherwise. */
export function partialSeeds(s: Spread, seeds: number): string {
  return s.seeds < seeds ? ` (${s.seeds} of ${seeds} seeds)` : '';
}

/** The methods of Table 9 over seeds, in its order: LOTS's own top K, then each ranking at K = 2 and 4. */
export const FIXED_K_SEED_METHODS: readonly string[] = ['lots', ...FIXED_K_RANKINGS].flatMap((r) => FIXED_KS.map((k) => `${r}-k${k}`));

/** Table 9 over seeds: every ranking at a fixed K and LOTS's top K minus it (its own K), mean and spread. */
export function fixedKSeedSummary(points: readonly SeedPoint[]): SeedSummaryRow[] {
  if (!points.some((p) => p.fixedK)) return [];
  return seedSummary(points, FIXED_K_SEED_METHODS, (p, method) => p.fixedK?.[method]);
}

/** The seeded draws behind a fixed-K row (Random) in any seed, undefined for a deterministic ranking. */
export function fixedKSeedDraws(points: readonly SeedPoint[], method: string): number | undefined {
  const draws = Math.max(0, ...points.map((p) => p.fixedK?.[method]?.draws ?? 0));
  return draws > 0 ? draws : undefined;
}

/** The plain-text table `lots demo --seeds N` prints (also fenced into docs/results.md). */
export function formatSeedTable(points: readonly SeedPoint[]): string {
  return seedTable(
    points,
    seedSummary(points),
    (p, method) => p.lotsMinus[method],
    ['method', 'LOTS − method'],
    `across ${points.length} seed${points.length === 1 ? '' : 's'} (${points.map((p) => p.seed).join(', ')}): evaluation accuracy (mean over families) and LOTS minus each method, as mean ± sample sd across seeds, beside each seed's pooled paired difference with its 95% family-stratified bootstrap interval`,
  );
}

/** Table 9 over seeds, as `lots demo --seeds N` and `lots evaluate` print it; '' without fixed-K rows. */
export function formatFixedKSeedTable(points: readonly SeedPoint[]): string {
  const rows = fixedKSeedSummary(points);
  if (rows.length === 0) return '';
  return seedTable(
    points,
    rows,
    (p, method) => p.fixedK?.[method],
    ['ranking at a fixed K', "LOTS's top K − it"],
    `Every ranking at the same fixed K (the paper's Table 9) across ${points.length} seeds (${points.map((p) => p.seed).join(', ')}): evaluation accuracy (mean over families) and LOTS's own top K minus the ranking's, as mean ± sample sd across seeds, beside each seed's pooled paired difference with its 95% family-stratified bootstrap interval`,
    (method) => {
      const draws = fixedKSeedDraws(points, method);
      return draws ? `${method} (${plural(draws, 'draw')})` : method;
    },
  );
}

function seedTable(
  points: readonly SeedPoint[],
  rows: readonly SeedSummaryRow[],
  difference: (p: SeedPoint, method: string) => Difference | undefined,
  [what, minus]: readonly [string, string],
  title: string,
  name: (method: string) => string = (method) => method,
): string {
  if (points.length === 0) return '';
  const f = (x: number) => formatFixed(x);
  // One seed's value has no spread: it is printed alone, with how many seeds it rests on.
  const cell = (s: Spread, mean: (x: number) => string, range?: (s: Spread) => string) => `${spreadText(s, mean, f, range)}${partialSeeds(s, points.length)}`;
  const header = [what, 'accuracy mean ± sd [min, max]', `${minus} mean ± sd`, ...points.map((p) => `seed ${p.seed}: ${minus} [95% paired]`)];
  const body = rows.map((r) => [
    name(r.method),
    cell(r.accuracy, f, (s) => ` [${f(s.min)}, ${f(s.max)}]`),
    r.lotsMinus ? cell(r.lotsMinus, signed) : '–',
    ...points.map((p) => {
      const d = difference(p, r.method);
      if (!d) return '–';
      return `${signed(d.difference)}${d.lo !== undefined && d.hi !== undefined ? ` [${signed(d.lo)}, ${signed(d.hi)}]` : ''}`;
    }),
  ]);
  return [title, ...alignColumns([header, ...body], { rule: true })].join('\n');
}
