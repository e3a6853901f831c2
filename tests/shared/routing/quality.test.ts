// Routing quality against known labels (paper D.1, Table 10): purity, NMI, ARI, clusters, and their
// mean ± sd over seeds. Reference values: scikit-learn's (adjusted_rand_score's documented example;
// normalized_mutual_info_score with its default arithmetic normalisation).
import { describe, expect, it } from 'vitest';
import { clusteringQuality, meanSd } from '../../../shared/routing/quality';
import { evaluateRouting, type LabelledRequest } from '../../../shared/routing/evaluate';

describe('clustering quality', () => {
  it("matches scikit-learn's values on its documented example", () => {
    const q = clusteringQuality(['a', 'a', 'a', 'b', 'b', 'b'], [0, 0, 1, 1, 2, 2]);
    expect(q.ari).toBeCloseTo(0.24242424242424246, 12);
    expect(q.nmi).toBeCloseTo(0.5158037429793889, 12);
    expect(q.purity).toBeCloseTo(5 / 6, 12);
    expect(q).toMatchObject({ clusters: 3, labels: 2, requests: 6 });
  });

  it('is 1 for the labels themselves under other names, and purity counts a merge', () => {
    expect(clusteringQuality(['x', 'y', 'x', 'z'], [7, 3, 7, 0])).toMatchObject({ purity: 1, nmi: 1, ari: 1, clusters: 3 });
    const merged = clusteringQuality(['x', 'x', 'y', 'y'], [0, 0, 0, 0]);
    expect(merged).toMatchObject({ purity: 0.5, nmi: 0, ari: 0, clusters: 1 });
    // Over-splitting keeps purity at 1 and costs NMI and ARI (paper D.1: splitting is cheap).
    const split = clusteringQuality(['x', 'x', 'y', 'y'], [0, 1, 2, 3]);
    expect(split.purity).toBe(1);
    expect(split.ari).toBeCloseTo(0, 12);
    expect(split.nmi).toBeLessThan(1);
  });

  it('mean ± sample sd', () => {
    expect(meanSd([1, 2, 3])).toEqual({ mean: 2, sd: 1 });
    expect(meanSd([0.5])).toEqual({ mean: 0.5, sd: 0 });
  });
});

describe('evaluating a router against labels', () => {
  const templates: Record<string, (i: number) => string> = {
    table: (i) => `What is the total value of the ${i} rows in the inventory table, quantity times price?`,
    sensor: (i) => `Convert the mean of sensor ${i} readings from Celsius to Fahrenheit.`,
    calendar: (i) => `How many minutes are between meeting ${i} start and the lunch break in my calendar?`,
  };
  const requests: LabelledRequest[] = Object.entries(templates).flatMap(([label, f]) =>
    Array.from({ length: 12 }, (_, i) => ({ id: `${label}-${i}`, text: f(i * 13), label, split: i < 4 ? ('fit' as const) : ('eval' as const) })),
  );

  it('fits on the fitting requests and measures the evaluation requests routed to the nearest centroid', () => {
    const r = evaluateRouting(requests, { kind: 'kmeans', k: 3 });
    expect(r).toMatchObject({ protocol: 'fit-eval', fitted: 12, measured: 24, seeds: [1, 2, 3] });
    expect(r.perSeed).toHaveLength(3);
    expect(r.purity).toEqual({ mean: 1, sd: 0 });
    expect(r.nmi.mean).toBeCloseTo(1, 12);
    expect(r.ari.mean).toBeCloseTo(1, 12);
    expect(r.clusters).toEqual({ mean: 3, sd: 0 });
  });

  it('clusters everything when there is no split; a merge at k = 2 shows in every figure; the threshold router has one seed', () => {
    const noSplit = requests.map(({ split: _, ...r }) => r);
    const merged = evaluateRouting(noSplit, { kind: 'kmeans', k: 2 }, [1, 2]);
    expect(merged).toMatchObject({ protocol: 'all', measured: 36, seeds: [1, 2] });
    expect(merged.purity.mean).toBeCloseTo(2 / 3, 12);
    expect(merged.ari.mean).toBeLessThan(0.7);
    const online = evaluateRouting(requests, { kind: 'threshold', tau: 0.999 });
    expect(online.seeds).toEqual([1]);
    expect(online.purity.mean).toBe(1);
  });

  it('takes the embeddings it is given (a dense encoder), one per request', () => {
    const axis = (j: number) => Float64Array.from([0, 1, 2], (d) => (d === j ? 1 : 0));
    const labels = Object.keys(templates);
    const vectors = requests.map((r) => axis(labels.indexOf(r.label)));
    expect(evaluateRouting(requests, { kind: 'kmeans', k: 3 }, [1], vectors).ari.mean).toBeCloseTo(1, 12);
    expect(() => evaluateRouting(requests, { kind: 'kmeans', k: 3 }, [1], vectors.slice(1))).toThrow(/35 embeddings for 36 requests/);
  });
});
