// The benchmark's own seeded PRNG. Every random choice of the benchmark goes through it, keyed by a
// path of strings (seed, purpose, family, index), so one request can be rebuilt alone from its trace
// without replaying the generation of the others, and adding requests never shifts earlier ones.
import { fnv1a, mulberry32, shuffle } from './prng';

/** FNV-1a over the UTF-16 code units, finished with a murmur-style avalanche. */
export function hashString(text: string): number {
  let h = fnv1a(text);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private readonly stream: () => number;

  constructor(seed: number) {
    this.stream = mulberry32(seed);
  }

  /** mulberry32: a float in [0, 1). */
  next(): number {
    return this.stream();
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    return shuffle(items, this.stream);
  }

  /** k distinct items, in draw order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.min(k, items.length));
  }
}

/** The generator for one purpose, e.g. rngFor(seed, 'scene', 'table_total', 12). */
export function rngFor(...path: ReadonlyArray<string | number>): Rng {
  return new Rng(hashString(path.map(String).join('\u0000')));
}
