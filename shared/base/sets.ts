// Tool lists compared as sets: a space, a top-K, a proposal. Order and repeats do not count.

/** Whether `a` and `b` hold the same names. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((t) => x.has(t));
}
