// How well a routing recovers known task labels (paper D.1, Table 10): purity, normalised mutual
// information (arithmetic normalisation, as scikit-learn's default) and the adjusted Rand index against
// the labels, which the router never reads; and the same over several clustering seeds, as mean ± sd.

export interface ClusteringQuality {
  /** Share of requests whose cluster's majority label is their own label. */
  purity: number;
  nmi: number;
  ari: number;
  clusters: number;
  /** Distinct labels among the requests measured. */
  labels: number;
  requests: number;
}

export interface MeanSd {
  mean: number;
  sd: number;
}

/** Quality of `assignment` (a cluster per request) against `labels` (the known task per request). */
export function clusteringQuality(labels: readonly string[], assignment: readonly number[]): ClusteringQuality {
  if (labels.length !== assignment.length) throw new RangeError(`${labels.length} labels for ${assignment.length} assignments`);
  const n = labels.length;
  const labelIds = new Map<string, number>();
  for (const l of labels) if (!labelIds.has(l)) labelIds.set(l, labelIds.size);
  const clusterIds = new Map<number, number>();
  for (const c of assignment) if (!clusterIds.has(c)) clusterIds.set(c, clusterIds.size);
  const L = labelIds.size;
  const C = clusterIds.size;
  // Contingency table: rows clusters, columns labels.
  const table = Array.from({ length: C }, () => new Array<number>(L).fill(0));
  for (let i = 0; i < n; i++) table[clusterIds.get(assignment[i]!)!]![labelIds.get(labels[i]!)!]! += 1;
  const rowSums = table.map((r) => r.reduce((a, b) => a + b, 0));
  const colSums = Array.from({ length: L }, (_, j) => table.reduce((a, r) => a + r[j]!, 0));
  if (n === 0) return { purity: 0, nmi: 0, ari: 0, clusters: 0, labels: 0, requests: 0 };

  const purity = table.reduce((a, r) => a + Math.max(...r), 0) / n;

  const entropy = (counts: readonly number[]): number => -counts.reduce((a, c) => (c > 0 ? a + (c / n) * Math.log(c / n) : a), 0);
  let mutual = 0;
  for (let c = 0; c < C; c++)
    for (let l = 0; l < L; l++) {
      const nij = table[c]![l]!;
      if (nij > 0) mutual += (nij / n) * Math.log((n * nij) / (rowSums[c]! * colSums[l]!));
    }
  const hC = entropy(rowSums);
  const hL = entropy(colSums);
  // Both partitions trivial (one cluster, one label): identical, NMI 1 by convention (as scikit-learn).
  const nmi = hC === 0 && hL === 0 ? 1 : (hC + hL) / 2 === 0 ? 0 : Math.max(0, mutual) / ((hC + hL) / 2);

  const pairs = (x: number): number => (x * (x - 1)) / 2;
  const index = table.reduce((a, r) => a + r.reduce((b, x) => b + pairs(x), 0), 0);
  const rowPairs = rowSums.reduce((a, x) => a + pairs(x), 0);
  const colPairs = colSums.reduce((a, x) => a + pairs(x), 0);
  const expected = (rowPairs * colPairs) / pairs(n || 1);
  const max = (rowPairs + colPairs) / 2;
  const ari = max === expected ? 1 : (index - expected) / (max - expected);

  return { purity, nmi, ari, clusters: C, labels: L, requests: n };
}

/** Mean and sample standard deviation (n − 1; 0 for a single value). */
export function meanSd(values: readonly number[]): MeanSd {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (values.length === 1) return { mean, sd: 0 };
  const v = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return { mean, sd: Math.sqrt(v) };
}

export interface QualityOverSeeds {
  seeds: number[];
  perSeed: ClusteringQuality[];
  purity: MeanSd;
  nmi: MeanSd;
  ari: MeanSd;
  clusters: MeanSd;
}

export function summariseSeeds(seeds: readonly number[], perSeed: readonly ClusteringQuality[]): QualityOverSeeds {
  return {
    seeds: [...seeds],
    perSeed: [...perSeed],
    purity: meanSd(perSeed.map((q) => q.purity)),
    nmi: meanSd(perSeed.map((q) => q.nmi)),
    ari: meanSd(perSeed.map((q) => q.ari)),
    clusters: meanSd(perSeed.map((q) => q.clusters)),
  };
}
