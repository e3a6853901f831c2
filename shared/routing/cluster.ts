// Task routing by request clustering (paper D.1): k-means on cosine distance (k-means++ seeding,
// seeded and deterministic), k chosen by silhouette when not given, and an online threshold router
// with running-mean centroids. Over-splitting a task is cheap and merging is costly (D.1), so when
// silhouettes tie the larger k wins.
import { mulberry32 } from '../lots/prng';

export interface Clustering {
  k: number;
  /** Cluster index per input vector. */
  assignment: number[];
  centroids: Float64Array[];
  silhouette: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function normalise(v: Float64Array): Float64Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}

/** Cosine distance between unit vectors. */
function distance(a: Float64Array, b: Float64Array): number {
  const d = 1 - dot(a, b);
  return d < 1e-9 ? 0 : d; // identical requests are at distance exactly 0, not rounding noise
}

/**
 * Restarts of k-means++ per call; the partition with the lowest inertia (sum of cosine distances to the
 * centroids) is kept, as scikit-learn's KMeans did by default (n_init = 10) until 1.4. One k-means++
 * start can settle in a local optimum that merges two tasks and splits a third (on the built-in
 * benchmark with the sentence encoder, about five starts in six do, against the lowest-inertia partition).
 */
export const KMEANS_RESTARTS = 20;

export function kMeans(vectors: readonly Float64Array[], k: number, seed = 1, iterations = 50, restarts = KMEANS_RESTARTS): Clustering {
  const n = vectors.length;
  if (n === 0) return { k: 0, assignment: [], centroids: [], silhouette: 0 };
  k = Math.max(1, Math.min(k, n));
  const rand = mulberry32(seed);
  let best: Lloyd | undefined;
  for (let r = 0; r < Math.max(1, restarts); r++) {
    const run = lloyd(vectors, k, rand, iterations);
    if (!best || run.inertia < best.inertia - 1e-9) best = run;
  }
  return { k: best!.centroids.length, assignment: best!.assignment, centroids: best!.centroids, silhouette: silhouette(vectors, best!.assignment) };
}

interface Lloyd {
  assignment: number[];
  centroids: Float64Array[];
  /** Sum over vectors of the cosine distance to their centroid. */
  inertia: number;
}

/** One k-means++ start and Lloyd's iterations on cosine distance. */
function lloyd(vectors: readonly Float64Array[], k: number, rand: () => number, iterations: number): Lloyd {
  const n = vectors.length;
  const centroids: Float64Array[] = [vectors[Math.floor(rand() * n)]!];
  while (centroids.length < k) {
    const d2 = vectors.map((v) => Math.min(...centroids.map((c) => distance(v, c))) ** 2);
    const total = d2.reduce((a, b) => a + b, 0);
    if (total < 1e-12) break; // fewer distinct requests than k
    let r = rand() * total;
    let pick = 0;
    for (; pick < n - 1; pick++) {
      r -= d2[pick]!;
      if (r <= 0) break;
    }
    centroids.push(vectors[pick]!);
  }
  const assignment = new Array<number>(n).fill(0);
  for (let it = 0; it < iterations; it++) {
    let changed = false;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      centroids.forEach((c, j) => {
        const d = distance(vectors[i]!, c);
        if (d < bestD - 1e-12) {
          bestD = d;
          best = j;
        }
      });
      if (assignment[i] !== best) {
        assignment[i] = best;
        changed = true;
      }
    }
    for (let j = 0; j < centroids.length; j++) {
      const sum = new Float64Array(vectors[0]!.length);
      let count = 0;
      for (let i = 0; i < n; i++)
        if (assignment[i] === j) {
          count++;
          vectors[i]!.forEach((x, d) => (sum[d]! += x));
        }
      if (count > 0) centroids[j] = normalise(sum);
    }
    if (!changed && it > 0) break;
  }
  const inertia = vectors.reduce((s, v, i) => s + distance(v, centroids[assignment[i]!]!), 0);
  return { assignment, centroids, inertia };
}

/** Mean silhouette (cosine distance); 0 for a single cluster. */
export function silhouette(vectors: readonly Float64Array[], assignment: readonly number[]): number {
  const clusters = new Set(assignment);
  if (clusters.size < 2) return 0;
  let total = 0;
  for (let i = 0; i < vectors.length; i++) {
    const sums = new Map<number, { s: number; c: number }>();
    for (let j = 0; j < vectors.length; j++) {
      if (i === j) continue;
      const e = sums.get(assignment[j]!) ?? { s: 0, c: 0 };
      e.s += distance(vectors[i]!, vectors[j]!);
      e.c++;
      sums.set(assignment[j]!, e);
    }
    const own = sums.get(assignment[i]!);
    if (!own || own.c === 0) continue; // singleton: silhouette 0
    const a = own.s / own.c;
    let b = Infinity;
    for (const [c, e] of sums) if (c !== assignment[i]) b = Math.min(b, e.s / e.c);
    total += b === Infinity ? 0 : (b - a) / Math.max(a, b, 1e-12);
  }
  return total / vectors.length;
}

/** k-means with k chosen by silhouette over [2, maxK]; ties (within 1e-9) go to the larger k. */
export function clusterBySilhouette(vectors: readonly Float64Array[], maxK = 20, seed = 1): Clustering {
  if (vectors.length < 3) return kMeans(vectors, 1, seed);
  let best: Clustering | undefined;
  for (let k = 2; k <= Math.min(maxK, vectors.length - 1); k++) {
    const c = kMeans(vectors, k, seed);
    if (!best || c.silhouette >= best.silhouette - 1e-9) best = c;
  }
  return best!;
}

/** Online threshold router: join the closest centroid when cosine similarity ≥ tau, else open a new task. */
export function thresholdRoute(vectors: readonly Float64Array[], tau: number): Clustering {
  const centroids: { sum: Float64Array; unit: Float64Array }[] = [];
  const assignment = vectors.map((v) => {
    let best = -1;
    let bestSim = -Infinity;
    centroids.forEach((c, j) => {
      const s = dot(v, c.unit);
      if (s > bestSim) {
        bestSim = s;
        best = j;
      }
    });
    if (best === -1 || bestSim < tau) {
      centroids.push({ sum: Float64Array.from(v), unit: v });
      return centroids.length - 1;
    }
    const c = centroids[best]!;
    v.forEach((x, d) => (c.sum[d]! += x));
    c.unit = normalise(c.sum);
    return best;
  });
  return { k: centroids.length, assignment, centroids: centroids.map((c) => c.unit), silhouette: silhouette(vectors, assignment) };
}

/** Each vector's nearest centroid (cosine): how requests that arrive after the router was fitted are routed. */
export function assignToCentroids(vectors: readonly Float64Array[], centroids: readonly Float64Array[]): number[] {
  return vectors.map((v) => {
    let best = 0;
    let bestD = Infinity;
    centroids.forEach((c, j) => {
      const d = distance(v, c);
      if (d < bestD - 1e-12) {
        bestD = d;
        best = j;
      }
    });
    return best;
  });
}
