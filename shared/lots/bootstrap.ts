// Uncertainty of a task ranking by the bootstrap over requests: resample the task's score rows with
// replacement, recompute every Ī_t(s), rank, and record (a) percentile intervals of each tool's mean and
// (b) rank stability — how often a tool stays inside the top-K and its mean rank. Requests, not single
// scores, are resampled because the scores of one request are correlated (they share its frozen answer).
import type { ScoreRow } from '../project/scores';
import { compareNames } from './aggregate';
import { mulberry32 } from './prng';

export interface BootstrapOptions {
  /** The budget whose membership is tracked. */
  k: number;
  /** Number of resamples (default 1000). */
  resamples?: number;
  seed?: number;
  /** Coverage of the percentile interval (default 0.95). */
  level?: number;
}

export interface ToolBootstrap {
  tool: string;
  /** Percentile interval of Ī_t(s) over the resamples that scored the tool. */
  lo: number;
  hi: number;
  /** Share of resamples in which the tool is inside the top-K (a resample that drew no score for it counts as outside). */
  topKShare: number;
  /** Mean 1-based rank over the resamples that scored the tool. */
  meanRank: number;
  /** Share of resamples that drew at least one score for the tool. */
  present: number;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 1;

/** Rows of ONE task. Tools are returned sorted by name. */
export function bootstrapRanking(rows: readonly Pick<ScoreRow, 'scores'>[], options: BootstrapOptions): ToolBootstrap[] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const k = options.k;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);

  // Tool indices follow name order, so comparing indices breaks ties by name.
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort(compareNames);
  const m = names.length;
  const n = rows.length;
  if (m === 0 || n === 0) return [];
  const index = new Map(names.map((t, i) => [t, i]));

  // Compressed rows: rowStart[r]..rowStart[r+1] index into (toolOf, valueOf).
  const rowStart = new Int32Array(n + 1);
  let nnz = 0;
  for (let r = 0; r < n; r++) {
    rowStart[r] = nnz;
    nnz += Object.keys(rows[r]!.scores).length;
  }
  rowStart[n] = nnz;
  const toolOf = new Int32Array(nnz);
  const valueOf = new Float64Array(nnz);
  for (let r = 0, p = 0; r < n; r++) {
    for (const [tool, v] of Object.entries(rows[r]!.scores)) {
      toolOf[p] = index.get(tool)!;
      valueOf[p++] = v;
    }
  }

  const rng = mulberry32(options.seed ?? DEFAULT_SEED);
  const sums = new Float64Array(m);
  const counts = new Int32Array(m);
  const means = new Float64Array(m);
  const samples: Float64Array[] = names.map(() => new Float64Array(resamples));
  const sampleCount = new Int32Array(m);
  const inTopK = new Int32Array(m);
  const rankSum = new Float64Array(m);
  const order = new Int32Array(m);

  for (let b = 0; b < resamples; b++) {
    sums.fill(0);
    counts.fill(0);
    for (let d = 0; d < n; d++) {
      const r = Math.floor(rng() * n);
      for (let p = rowStart[r]!; p < rowStart[r + 1]!; p++) {
        sums[toolOf[p]!]! += valueOf[p]!;
        counts[toolOf[p]!]!++;
      }
    }
    let present = 0;
    for (let t = 0; t < m; t++) {
      if (counts[t] === 0) continue;
      means[t] = sums[t]! / counts[t]!;
      samples[t]![sampleCount[t]!++] = means[t]!;
      order[present++] = t;
    }
    const ranked = Array.from(order.subarray(0, present)).sort((a, c) => (means[a] !== means[c] ? means[c]! - means[a]! : a - c));
    for (let i = 0; i < ranked.length; i++) {
      const t = ranked[i]!;
      rankSum[t]! += i + 1;
      if (i < k) inTopK[t]!++;
    }
  }

  const tail = (1 - level) / 2;
  return names.map((tool, t) => {
    const got = samples[t]!.subarray(0, sampleCount[t]!).sort();
    return {
      tool,
      lo: quantile(got, tail),
      hi: quantile(got, 1 - tail),
      topKShare: inTopK[t]! / resamples,
      meanRank: sampleCount[t]! === 0 ? Number.NaN : rankSum[t]! / sampleCount[t]!,
      present: sampleCount[t]! / resamples,
    };
  });
}

/** Linear-interpolation quantile of sorted values (type 7, as R's and numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
