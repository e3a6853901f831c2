// The Budget view's numbers with their uncertainty (issue 40): a Wilson score interval for a measured
// accuracy (n is small: a sweep point is 8 fitting requests, where the normal approximation gives
// intervals outside [0, 1]), a random baseline's mean over draws as [lo, hi] like every other interval,
// "nice" axis ticks (0, 100, 200 … rather than 95, 190, 285) and the sentence for a K the sweep did not measure.

/** Wilson score interval of a proportion `p` measured on `n` trials, at z (1.96: 95%). */
export function wilson(p: number, n: number, z = 1.96): { lo: number; hi: number } {
  if (!(n > 0)) return { lo: 0, hi: 1 };
  const x = Math.min(1, Math.max(0, p));
  const z2 = z * z;
  const centre = (x + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((x * (1 - x)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/** A random baseline's accuracy over its draws as a 95% interval of the mean: mean ± 1.96·sd/√draws, within [0, 1]. */
export function drawsInterval(mean: number, sd: number, draws: number): { lo: number; hi: number } {
  const half = (1.96 * sd) / Math.sqrt(Math.max(1, draws));
  return { lo: Math.max(0, mean - half), hi: Math.min(1, mean + half) };
}

/** Ticks at 1, 2 or 5 × 10ⁿ steps from 0 up to at least `max` (about `count` of them). */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  const raw = max / Math.max(1, count - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const top = Math.ceil(max / step) * step;
  const out: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) out.push(Math.round(v * 1e9) / 1e9);
  return out;
}

/** The measured Ks of a sweep as "1…4" (a run of consecutive values) or "1, 2, 4". */
export function describeGrid(ks: readonly number[]): string {
  if (ks.length === 0) return 'no K';
  const sorted = [...ks].sort((a, b) => a - b);
  const consecutive = sorted.every((k, i) => i === 0 || k === sorted[i - 1]! + 1);
  return consecutive && sorted.length > 2 ? `${sorted[0]}…${sorted.at(-1)}` : sorted.join(', ');
}
