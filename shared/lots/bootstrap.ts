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
  // A resampled mean lies between the tool's smallest and largest score; clamping removes rounding noise.
  const minValue = new Float64Array(m).fill(Infinity);
  const maxValue = new Float64Array(m).fill(-Infinity);
  for (let p = 0; p < nnz; p++) {
    const t = toolOf[p]!;
    if (valueOf[p]! < minValue[t]!) minValue[t] = valueOf[p]!;
    if (valueOf[p]! > maxValue[t]!) maxValue[t] = valueOf[p]!;
  }

  // A resample is a multiplicity per request (how often it was drawn): each drawn row is visited once.
  const weight = new Int32Array(n);
  // The ranking of the previous resample is nearly sorted for the next one: insertion sort is ~linear.
  const ranked = Int32Array.from(names.keys());
  for (let b = 0; b < resamples; b++) {
    drawWeights(rng, weight);
    accumulate(weight, rowStart, toolOf, valueOf, sums, counts);
    let present = 0;
    for (let t = 0; t < m; t++) {
      if (counts[t] === 0) {
        means[t] = -Infinity; // sorts last; never counted
        continue;
      }
      means[t] = Math.min(maxValue[t]!, Math.max(minValue[t]!, sums[t]! / counts[t]!));
      samples[t]![sampleCount[t]!++] = means[t]!;
      present++;
    }
    insertionSortByMean(ranked, means);
    for (let i = 0; i < present; i++) {
      const t = ranked[i]!;
      rankSum[t]! += i + 1;
      if (i < k) inTopK[t]!++;
    }
  }

  const tail = (1 - level) / 2;
  return names.map((tool, t) => {
    const got = samples[t]!.subarray(0, sampleCount[t]).sort();
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

function drawWeights(rng: () => number, weight: Int32Array): void {
  const n = weight.length;
  weight.fill(0);
  for (let d = 0; d < n; d++) weight[Math.floor(rng() * n)]!++;
}

function accumulate(weight: Int32Array, rowStart: Int32Array, toolOf: Int32Array, valueOf: Float64Array, sums: Float64Array, counts: Int32Array): void {
  sums.fill(0);
  counts.fill(0);
  for (let r = 0; r < weight.length; r++) {
    const w = weight[r]!;
    if (w === 0) continue;
    const end = rowStart[r + 1]!;
    for (let p = rowStart[r]!; p < end; p++) {
      const t = toolOf[p]!;
      sums[t]! += w * valueOf[p]!;
      counts[t]! += w;
    }
  }
}

/** Mean descending, ties by index (= by name, since indices follow name order). */
function insertionSortByMean(order: Int32Array, means: Float64Array): void {
  for (let i = 1; i < order.length; i++) {
    const t = order[i]!;
    const mt = means[t]!;
    let j = i - 1;
    while (j >= 0) {
      const u = order[j]!;
      const mu = means[u]!;
      if (mu > mt || (mu === mt && u < t)) break;
      order[j + 1] = u;
      j--;
    }
    order[j + 1] = t;
  }
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
