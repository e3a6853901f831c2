// Correctly rounded summation (Shewchuk's algorithm, as in Python's math.fsum). The exact sum does
// not depend on the order of the terms, so a task mean — and therefore the ranking and its ties —
// is the same however the score rows are ordered.

/** Add `x` to the non-overlapping partial sums `partials` (mutated in place). */
export function fsumAdd(partials: number[], x: number): void {
  let i = 0;
  for (let j = 0; j < partials.length; j++) {
    let y = partials[j]!;
    if (Math.abs(x) < Math.abs(y)) {
      const t = x;
      x = y;
      y = t;
    }
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) partials[i++] = lo;
    x = hi;
  }
  partials.length = i;
  partials.push(x);
}

/** The correctly rounded value of the exact sum held in `partials`. */
export function fsumValue(partials: readonly number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Round half to even across the boundary between the two top partials.
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (const v of values) fsumAdd(partials, v);
  return fsumValue(partials);
}
