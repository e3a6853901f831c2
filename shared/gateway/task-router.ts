// The router the gateway applies to a request that names no task: the project's tasks, each the centroid
// of its requests' hashed TF-IDF vectors (the embedding `lots route` clusters with), and a new request
// goes to the nearest centroid (the way routing assigns requests that arrive after it was fitted).
import { assignToCentroids } from '../routing/cluster';
import { requestEmbedder } from '../routing/embed';

export interface TaskSample {
  task: string;
  text: string;
}

export type TaskRouter = (text: string) => string;

/** Undefined when there is nothing to route to (no samples). */
export function fitTaskRouter(samples: readonly TaskSample[]): TaskRouter | undefined {
  if (samples.length === 0) return undefined;
  const embed = requestEmbedder(samples.map((s) => s.text));
  const sums = new Map<string, Float64Array>();
  for (const s of samples) {
    const v = embed(s.text);
    let sum = sums.get(s.task);
    if (!sum) sums.set(s.task, (sum = new Float64Array(v.length)));
    for (let i = 0; i < v.length; i++) sum[i]! += v[i]!;
  }
  const tasks = [...sums.keys()];
  const centroids = tasks.map((t) => unit(sums.get(t)!));
  return (text) => tasks[assignToCentroids([embed(text)], centroids)[0]!]!;
}

function unit(v: Float64Array): Float64Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}
