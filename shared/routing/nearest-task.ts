// Routing a new request to a task, and knowing when not to. Each task is the centroid of its requests'
// unit vectors; a request goes to the task whose centroid is nearest by cosine — but only when it is
// about as close to that task as the task's own requests are. Otherwise it is unrouted: a request
// unrelated to every task ("Write a haiku about the sea.") is not cut to the nearest task's space, it is
// passed through whole and kept, without a task, for `lots route` to make a task of later.
//
// The threshold comes from the project's own data: every request of a task with at least two is compared
// with its task's centroid computed without it (leave-one-out, so a request does not vote for itself),
// and the threshold is the 1st percentile of those within-task similarities (their minimum below 100).
// So about 1 in 100 of the project's own requests would be unrouted, the price of never forcing an
// unrelated request into a space. With fewer than MIN_WITHIN_TASK such similarities the estimate means
// little and there is no threshold (every request is routed, as before) unless the operator sets one.
// Pure and embedding-agnostic: the vectors may be hashed TF-IDF or a sentence encoder's.

export interface TaskVector {
  task: string;
  /** A unit vector. */
  vector: Float64Array;
}

/** The share of the project's own requests allowed below the threshold. */
export const ROUTE_THRESHOLD_QUANTILE = 0.01;
/** Within-task similarities needed before a threshold is chosen from them. */
export const MIN_WITHIN_TASK = 20;

export interface RouteThreshold {
  /** Undefined: no threshold (too little data, and none set). */
  value?: number;
  /** Where it came from: the project's within-task similarities, or the operator (--route-threshold). */
  from: 'data' | 'operator' | 'none';
  /** How many within-task similarities it was chosen from. */
  samples: number;
}

export type RouteDecision =
  | { task: string; similarity: number }
  /** Unrouted: the nearest task and its similarity, under the threshold. */
  | { task?: undefined; nearest: string; similarity: number; threshold: number };

export interface NearestTaskRouter {
  tasks: readonly string[];
  threshold: RouteThreshold;
  route(vector: Float64Array): RouteDecision;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function sums(samples: readonly TaskVector[]): Map<string, { sum: Float64Array; n: number }> {
  const out = new Map<string, { sum: Float64Array; n: number }>();
  for (const s of samples) {
    let t = out.get(s.task);
    if (!t) out.set(s.task, (t = { sum: new Float64Array(s.vector.length), n: 0 }));
    for (let i = 0; i < s.vector.length; i++) t.sum[i]! += s.vector[i]!;
    t.n++;
  }
  return out;
}

/**
 * Each request's cosine with its own task's centroid without it, for the tasks with two requests or more.
 * With x a unit vector and S its task's sum: the centroid without x is S − x, and
 * cos = (x·S − 1) / |S − x|, where |S − x|² = |S|² − 2 x·S + 1.
 */
export function withinTaskSimilarities(samples: readonly TaskVector[]): number[] {
  const byTask = sums(samples);
  const norms = new Map([...byTask].map(([task, t]) => [task, dot(t.sum, t.sum)]));
  const out: number[] = [];
  for (const s of samples) {
    const t = byTask.get(s.task)!;
    if (t.n < 2) continue;
    const xs = dot(s.vector, t.sum);
    const rest = Math.sqrt(Math.max(0, norms.get(s.task)! - 2 * xs + 1));
    out.push(rest > 1e-12 ? (xs - 1) / rest : 1);
  }
  return out;
}

/** The q-quantile of the values (the lower of the two around it): their minimum for q·(n − 1) < 1. */
export function lowerQuantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}

/** The threshold the project's data gives (or the operator's, when set). */
export function chooseRouteThreshold(samples: readonly TaskVector[], operator?: number): RouteThreshold {
  const within = withinTaskSimilarities(samples);
  if (operator !== undefined) return { value: operator, from: 'operator', samples: within.length };
  if (within.length < MIN_WITHIN_TASK) return { from: 'none', samples: within.length };
  return { value: lowerQuantile(within, ROUTE_THRESHOLD_QUANTILE), from: 'data', samples: within.length };
}

/** Undefined when there is nothing to route to (no samples). */
export function fitNearestTask(samples: readonly TaskVector[], operatorThreshold?: number): NearestTaskRouter | undefined {
  if (samples.length === 0) return undefined;
  const byTask = sums(samples);
  const tasks = [...byTask.keys()];
  const centroids = tasks.map((t) => {
    const sum = byTask.get(t)!.sum;
    const n = Math.sqrt(dot(sum, sum)) || 1;
    return sum.map((x) => x / n);
  });
  const threshold = chooseRouteThreshold(samples, operatorThreshold);
  return {
    tasks,
    threshold,
    route(vector) {
      let best = 0;
      let similarity = -Infinity;
      centroids.forEach((c, i) => {
        const s = dot(vector, c);
        if (s > similarity) [best, similarity] = [i, s];
      });
      const task = tasks[best]!;
      if (threshold.value !== undefined && !(similarity >= threshold.value)) return { nearest: task, similarity, threshold: threshold.value };
      return { task, similarity };
    },
  };
}
