// Routing quality against known task labels (paper D.1, Table 10): the labelled requests are routed as
// if they had no label, and the clusters are compared with the labels. Where the requests carry a
// fitting/evaluation split (the built-in benchmark), the router is fitted on the fitting requests and
// the evaluation requests are routed to the nearest centroid (the threshold router keeps going online)
// and measured, as the paper measures its 3,200 evaluation requests; otherwise every request is
// clustered and measured. k-means is run once per seed and reported as mean ± sd; the threshold router
// is deterministic and has one seed.
import { assignToCentroids, clusterBySilhouette, kMeans, thresholdRoute, type Clustering } from './cluster';
import { embedRequests } from './embed';
import { clusteringQuality, summariseSeeds, type QualityOverSeeds } from './quality';
import type { RoutingMethod } from './route';

export interface LabelledRequest {
  id: string;
  text: string;
  /** The known task (the benchmark's family, the BFCL class). */
  label: string;
  split?: 'fit' | 'eval';
}

export interface RoutingEvaluation extends QualityOverSeeds {
  method: RoutingMethod;
  /** 'fit-eval': fitted on the fitting requests, measured on the evaluation requests; 'all': clustered and measured together. */
  protocol: 'fit-eval' | 'all';
  fitted: number;
  measured: number;
}

export const DEFAULT_QUALITY_SEEDS = [1, 2, 3] as const;

/**
 * `vectors`: one embedding per request (unit length), default the hashed TF-IDF of the texts; a dense
 * encoder passes its own.
 */
export function evaluateRouting(
  requests: readonly LabelledRequest[],
  method: RoutingMethod,
  seeds: readonly number[] = DEFAULT_QUALITY_SEEDS,
  vectors: readonly Float64Array[] = embedRequests(requests.map((r) => r.text)),
): RoutingEvaluation {
  if (vectors.length !== requests.length) throw new RangeError(`${vectors.length} embeddings for ${requests.length} requests`);
  const fitIdx = requests.flatMap((r, i) => (r.split === 'fit' ? [i] : []));
  const evalIdx = requests.flatMap((r, i) => (r.split === 'eval' ? [i] : []));
  const split = fitIdx.length > 0 && evalIdx.length > 0;
  const fitting = split ? fitIdx : requests.map((_, i) => i);
  const measured = split ? evalIdx : fitting;
  const fitVectors = fitting.map((i) => vectors[i]!);
  const runSeeds = method.kind === 'threshold' ? [seeds[0] ?? 1] : [...seeds];
  const perSeed = runSeeds.map((seed) => {
    let assignment: number[];
    if (method.kind === 'threshold') {
      // Online: the evaluation requests continue the stream after the fitting ones.
      const all = thresholdRoute([...fitVectors, ...(split ? measured.map((i) => vectors[i]!) : [])], method.tau);
      assignment = split ? all.assignment.slice(fitVectors.length) : all.assignment;
    } else {
      const c: Clustering = method.kind === 'kmeans' ? kMeans(fitVectors, method.k, seed) : clusterBySilhouette(fitVectors, method.maxK ?? 20, seed);
      assignment = split
        ? assignToCentroids(
            measured.map((i) => vectors[i]!),
            c.centroids,
          )
        : c.assignment;
    }
    return clusteringQuality(
      measured.map((i) => requests[i]!.label),
      assignment,
    );
  });
  return { method, protocol: split ? 'fit-eval' : 'all', fitted: fitting.length, measured: measured.length, ...summariseSeeds(runSeeds, perSeed) };
}
