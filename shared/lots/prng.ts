// Seeded randomness and the string hash that seeds it, one copy each, so every reproducible draw
// (bootstrap intervals, faithfulness draws, the benchmark, synthetic fixtures) is the same on every machine.

/** Returns a function giving floats in [0, 1) (mulberry32); the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit FNV-1a over the UTF-16 code units of `text`, from `basis` (the standard offset basis unless given). */
export function fnv1a(text: string, basis = 0x811c9dc5): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A shuffled copy (Fisher–Yates, from the last item down). */
export function shuffle<T>(items: readonly T[], rng: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** k distinct items, uniformly (a partial Fisher–Yates shuffle from the first item up; draws k numbers). */
export function sampleDistinct<T>(items: readonly T[], k: number, rng: () => number): T[] {
  const a = items.slice();
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, k);
}
