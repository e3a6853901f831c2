// The paper's Table 9 (C.3) on a run that has the fixed-K rows: every label-free ranking deployed at the same
// K = 2 and K = 4 in every task, LOTS's top-K minus each baseline's top-K on the same evaluation requests,
// with the family-stratified paired bootstrap interval and McNemar's exact p of the paired table. No
// fitting label enters any of these spaces, so the table compares rankings, not the choice of the budget.
// Printed by `lots evaluate` and `lots demo` when the run has LOTS at a fixed K and a baseline at the same K.
import { formatFixed, plural } from '../text';
import { alignColumns, type ComparisonRow } from './comparison-table';
import { pairOutcomes } from './paired-table';
import { DEFAULT_PAIRED_RESAMPLES, formatSigned, pairedComparison, pClause, type PairedDifference, type PairedOutcome } from './paired';

export const FIXED_KS = [2, 4] as const;
/** The rankings the paper's Table 9 compares LOTS with, in its order. */
export const FIXED_K_RANKINGS = ['tool2vec', 'dense', 'random'] as const;

export interface FixedKCell {
  /** The baseline's evaluation accuracy at this K, mean over the tasks it was measured in. */
  accuracy: number;
  /** LOTS's top-K minus the baseline's top-K, pooled over tasks (mean of the tasks' differences). */
  difference: PairedDifference;
  /** Random: the seeded draws each request was served under (the most over tasks). */
  draws?: number;
}

export interface FixedKTable {
  /** LOTS's evaluation accuracy at each K, mean over tasks (undefined where the run lacks the row). */
  lots: Partial<Record<(typeof FIXED_KS)[number], number>>;
  rows: { baseline: (typeof FIXED_K_RANKINGS)[number]; cells: Partial<Record<(typeof FIXED_KS)[number], FixedKCell>> }[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The table, or undefined when no baseline of the run was measured at a fixed K beside LOTS at that K. */
export function fixedKTable(rows: readonly ComparisonRow[], options: { seed?: number } = {}): FixedKTable | undefined {
  const lots: FixedKTable['lots'] = {};
  for (const k of FIXED_KS) {
    const accs = rows.flatMap((r) => {
      const e = r.results.get(`lots-k${k}`)?.eval;
      return e ? [e.accuracy] : [];
    });
    if (accs.length) lots[k] = mean(accs);
  }
  const out: FixedKTable['rows'] = [];
  for (const baseline of FIXED_K_RANKINGS) {
    const cells: FixedKTable['rows'][number]['cells'] = {};
    for (const k of FIXED_KS) {
      const pairs: PairedOutcome[] = [];
      const accs: number[] = [];
      let draws: number | undefined;
      for (const row of rows) {
        const other = row.results.get(`${baseline}-k${k}`)?.eval;
        if (!other) continue;
        accs.push(other.accuracy);
        if (other.draws !== undefined) draws = Math.max(draws ?? 0, other.draws);
        for (const [a, b] of pairOutcomes(row.results.get(`lots-k${k}`)?.eval, other) ?? []) pairs.push({ stratum: row.task, a: a.correct, b: b.correct });
      }
      if (pairs.length) cells[k] = { accuracy: mean(accs), difference: pairedComparison(pairs, options).pooled, ...(draws !== undefined ? { draws } : {}) };
    }
    if (Object.keys(cells).length) out.push({ baseline, cells });
  }
  return out.length ? { lots, rows: out } : undefined;
}

function cell(d: PairedDifference | undefined): string {
  if (!d) return '–';
  const interval = d.interval ? ` [${formatSigned(d.interval.lo)}, ${formatSigned(d.interval.hi)}]` : ` (${d.tooFew ?? 'no interval'})`;
  return `${formatSigned(d.difference)}${interval}${d.p !== undefined ? ` ${pClause(d.p)}` : ''}`;
}

/** The seeded draws behind a ranking's row (Random), undefined for a deterministic ranking. */
export function fixedKDraws(row: FixedKTable['rows'][number]): number | undefined {
  const draws = Math.max(0, ...FIXED_KS.map((k) => row.cells[k]?.draws ?? 0));
  return draws > 0 ? draws : undefined;
}

/** "random (1 draw)": a ranking's name, with the draws behind it where it has them. */
export function fixedKRowName(row: FixedKTable['rows'][number], name: string = row.baseline): string {
  const draws = fixedKDraws(row);
  return draws ? `${name} (${plural(draws, 'draw')})` : name;
}

export function formatFixedKTable(table: FixedKTable): string {
  const acc = (x: number | undefined) => (x === undefined ? '–' : formatFixed(x));
  const header = ['ranking at a fixed K', ...FIXED_KS.map((k) => `accuracy K=${k}`), ...FIXED_KS.map((k) => `LOTS − it, K=${k} [95% paired]`)];
  const body = [
    ['lots', ...FIXED_KS.map((k) => acc(table.lots[k])), ...FIXED_KS.map(() => '–')],
    ...table.rows.map((r) => [fixedKRowName(r), ...FIXED_KS.map((k) => acc(r.cells[k]?.accuracy)), ...FIXED_KS.map((k) => cell(r.cells[k]?.difference))]),
  ];
  return [
    `Every ranking at the same fixed K in every task (the paper's Table 9: no fitting label chooses any space): evaluation accuracy, mean over tasks, and LOTS's top-K minus the baseline's top-K, pooled, 95% family-stratified paired bootstrap interval (${DEFAULT_PAIRED_RESAMPLES.toLocaleString('en-US')} resamples), McNemar exact p`,
    ...alignColumns([header, ...body], { rule: true }),
  ].join('\n');
}
