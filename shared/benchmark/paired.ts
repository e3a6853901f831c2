// Paired statistics for comparing two menus on the same evaluation requests, as the paper's Table 9
// computes them: the accuracy difference (method A minus method B) with a 95% interval from a
// family-stratified paired bootstrap over requests (2,000 resamples, seeded), and McNemar's exact test
// on the discordant pairs. Per family and pooled; the pooled difference is the mean of the families'
// differences (the macro average the comparison table's mean row shows), so each family weighs the same
// whatever its number of requests. The same bootstrap gives an interval for a paired mean of any
// per-request quantity (prompt-token savings).
import { mulberry32 } from '../lots/prng';
import { formatFixed } from '../text';

/** One evaluation request served under both menus. */
export interface PairedOutcome {
  /** The stratum: the request's family (task). */
  stratum: string;
  /** Method A's value on the request (1 = correct, 0 = wrong; or any number, e.g. prompt tokens). */
  a: number;
  /** Method B's value on the same request. */
  b: number;
}

export interface PairedOptions {
  /** Bootstrap resamples (default 2,000, as the paper). */
  resamples?: number;
  seed?: number;
  /** Interval coverage (default 0.95). */
  level?: number;
  /**
   * Fewest requests a family (for a per-family interval) or the pool (for the pooled one) needs before an
   * interval is printed (default 10): with fewer, a percentile interval of a mean of 0/1 values is a
   * handful of distinct values and means nothing, so `interval` is absent and `tooFew` says why.
   */
  minForInterval?: number;
}

export interface PairedDifference {
  /** Mean of a − b (per family: over its requests; pooled: the mean of the families' means). */
  difference: number;
  /** Percentile interval of the difference over the stratified resamples; absent when too few requests. */
  interval?: { lo: number; hi: number };
  /** Why there is no interval. */
  tooFew?: string;
  /** Requests compared. */
  n: number;
  /** McNemar (0/1 outcomes only): requests A got right and B wrong, and the reverse. */
  discordant?: { aOnly: number; bOnly: number };
  /** McNemar's exact two-sided p-value (binomial on the discordant pairs; 1 when there are none). */
  p?: number;
}

export interface PairedComparison {
  /** Per family, in name order. */
  families: { stratum: string; result: PairedDifference }[];
  pooled: PairedDifference;
}

export const DEFAULT_PAIRED_RESAMPLES = 2000;
export const DEFAULT_PAIRED_SEED = 1;
export const DEFAULT_MIN_FOR_INTERVAL = 10;

/** Compare A with B on paired requests, per family and pooled. */
export function pairedComparison(outcomes: readonly PairedOutcome[], options: PairedOptions = {}): PairedComparison {
  const resamples = options.resamples ?? DEFAULT_PAIRED_RESAMPLES;
  const level = options.level ?? 0.95;
  const minN = options.minForInterval ?? DEFAULT_MIN_FOR_INTERVAL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  for (const o of outcomes) {
    if (!Number.isFinite(o.a) || !Number.isFinite(o.b)) throw new RangeError(`paired values must be finite numbers (family ${o.stratum}: ${o.a}, ${o.b})`);
  }
  const binary = outcomes.every((o) => (o.a === 0 || o.a === 1) && (o.b === 0 || o.b === 1));

  const byStratum = new Map<string, number[]>();
  for (const o of outcomes) {
    const list = byStratum.get(o.stratum) ?? [];
    list.push(o.a - o.b);
    byStratum.set(o.stratum, list);
  }
  const strata = [...byStratum.keys()].sort();
  const diffs = strata.map((s) => Float64Array.from(byStratum.get(s)!));

  // One stream of resamples serves every family and the pool: resample r draws each family's requests
  // with replacement (its own size), giving each family's mean and their mean.
  const rng = mulberry32(options.seed ?? DEFAULT_PAIRED_SEED);
  const perFamily = diffs.map(() => new Float64Array(resamples));
  const pooled = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    diffs.forEach((d, f) => {
      let s = 0;
      for (let i = 0; i < d.length; i++) s += d[Math.floor(rng() * d.length)]!;
      const m = s / d.length;
      perFamily[f]![r] = m;
      sum += m;
    });
    pooled[r] = diffs.length ? sum / diffs.length : 0;
  }

  const summarize = (values: readonly PairedOutcome[], mean: number, draws: Float64Array, n: number, what: string): PairedDifference => {
    const result: PairedDifference = { difference: mean, n };
    if (n >= minN) result.interval = percentileInterval(draws, level);
    else result.tooFew = `${n} ${n === 1 ? 'request' : 'requests'} ${what}: an interval needs at least ${minN}`;
    if (binary) {
      const aOnly = values.filter((o) => o.a === 1 && o.b === 0).length;
      const bOnly = values.filter((o) => o.a === 0 && o.b === 1).length;
      result.discordant = { aOnly, bOnly };
      result.p = mcnemarExact(aOnly, bOnly);
    }
    return result;
  };

  const families = strata.map((stratum, f) => {
    const values = outcomes.filter((o) => o.stratum === stratum);
    const d = diffs[f]!;
    return { stratum, result: summarize(values, mean(d), perFamily[f]!, d.length, 'in this family') };
  });
  const pooledMean = families.length ? families.reduce((a, f) => a + f.result.difference, 0) / families.length : 0;
  return { families, pooled: summarize(outcomes, pooledMean, pooled, outcomes.length, 'in all') };
}

/**
 * McNemar's exact test: under the null each discordant pair favours either side with probability ½, so
 * the two-sided p is twice the binomial tail of the smaller count (capped at 1).
 */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  if (!Number.isInteger(aOnly) || !Number.isInteger(bOnly) || aOnly < 0 || bOnly < 0) {
    throw new RangeError(`discordant counts must be non-negative integers, got ${aOnly} and ${bOnly}`);
  }
  const n = aOnly + bOnly;
  if (n === 0) return 1;
  const k = Math.min(aOnly, bOnly);
  // Σ_{i≤k} C(n, i) / 2^n, in logs so that large n neither overflows nor underflows early.
  let logC = 0; // log C(n, 0)
  let tail = 0;
  const log2n = n * Math.LN2;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log((n - i + 1) / i);
    tail += Math.exp(logC - log2n);
  }
  return Math.min(1, 2 * tail);
}

/** The percentile interval at `level` (linear interpolation between order statistics). */
export function percentileInterval(draws: ArrayLike<number>, level: number): { lo: number; hi: number } {
  const sorted = Float64Array.from(draws).sort();
  const q = (p: number) => {
    const x = p * (sorted.length - 1);
    const i = Math.floor(x);
    const j = Math.min(i + 1, sorted.length - 1);
    return sorted[i]! + (sorted[j]! - sorted[i]!) * (x - i);
  };
  const alpha = (1 - level) / 2;
  return { lo: q(alpha), hi: q(1 - alpha) };
}

function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return values.length ? s / values.length : 0;
}

/** "+0.12 [+0.05, +0.19], p = 0.003" — or the difference with why there is no interval. */
export function formatPaired(d: PairedDifference, digits = 2): string {
  const signed = (x: number) => formatSigned(x, digits);
  const interval = d.interval ? ` [${signed(d.interval.lo)}, ${signed(d.interval.hi)}]` : ' (n too small for an interval)';
  const p = d.p !== undefined ? `, ${pClause(d.p, true)}` : '';
  return `${signed(d.difference)}${interval}${p}`;
}

/** A signed number at `digits` places ("+0.25", "−350"); what rounds to zero prints as +0. */
export function formatSigned(x: number, digits = 2): string {
  const v = Math.abs(x) < 0.5 * 10 ** -digits ? 0 : x;
  return `${v >= 0 ? '+' : '−'}${formatFixed(Math.abs(v), digits)}`;
}

/** "p=0.13", or "p<0.001" below what formatP prints (spaced: "p = 0.13", "p < 0.001"). */
export function pClause(p: number, spaced = false): string {
  const text = formatP(p);
  const [relation, value] = text.startsWith('<') ? ['<', text.slice(1)] : ['=', text];
  return spaced ? `p ${relation} ${value}` : `p${relation}${value}`;
}

export function formatP(p: number): string {
  if (p >= 0.995) return '1';
  if (p >= 0.01) return p.toFixed(2);
  if (p >= 0.001) return p.toFixed(3);
  return '<0.001';
}
