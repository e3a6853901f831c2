// What the embedding baselines (Dense, Tool2Vec) share: cosine similarity of unit vectors, a tool's
// vector against the task's fitting requests, and the top K by it.
import { byName } from './fit-search';

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Mean cosine similarity of a tool's unit vector to each fitting request's. */
export function meanSimilarity(tool: Float64Array, requests: readonly Float64Array[]): number {
  if (requests.length === 0) return 0;
  return requests.reduce((a, r) => a + dot(tool, r), 0) / requests.length;
}

/** The K tools most similar to the fitting requests (ties by name), with every tool's similarity. */
export function topBySimilarity(
  tools: ReadonlyMap<string, Float64Array>,
  requests: readonly Float64Array[],
  k: number,
): { space: string[]; ranked: [string, number][] } {
  const ranked = [...tools.entries()].map(([t, v]) => [t, meanSimilarity(v, requests)] as [string, number]);
  ranked.sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
  return { space: ranked.slice(0, k).map(([t]) => t), ranked };
}

/** The mean of unit vectors, made unit again (Tool2Vec's tool vector from its queries). */
export function meanUnit(vectors: readonly Float64Array[]): Float64Array {
  const width = vectors[0]?.length ?? 0;
  const out = new Float64Array(width);
  for (const v of vectors) for (let i = 0; i < width; i++) out[i]! += v[i]!;
  let n = 0;
  for (const x of out) n += x * x;
  const norm = Math.sqrt(n) || 1;
  for (let i = 0; i < width; i++) out[i]! /= norm;
  return out;
}

export function toolText(t: { name: string; description?: string | undefined }): string {
  return `${t.name}: ${(t.description ?? '').replace(/\s+/g, ' ').trim()}`;
}
