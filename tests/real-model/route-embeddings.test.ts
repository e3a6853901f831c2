// Dense request embeddings for routing from the default real model (the serving GGUF's own embeddings,
// node-llama-cpp's embedding context): unit vectors of its hidden width, one per request, that the
// router clusters. The quality figures on the whole benchmark are measured in the README, not asserted.
import { expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { embedWithModel } from '../../electron/engine/routing/model-embeddings';
import { evaluateRouting } from '../../shared/routing/evaluate';
import { generateBenchmark } from '../../shared/benchmark/generate';
import { requestText } from '../../shared/routing/route';

describeRequiring('real-model', 'routing with the default model’s embeddings', () => {
  it('embeds benchmark requests as unit vectors of the model’s width and routes them', async () => {
    const traces = generateBenchmark({ families: ['table_total', 'sensor_mean', 'fx_settle'], fit: 2, eval: 2 });
    const embedded = await embedWithModel(pulledDefaultModel()!, traces.map(requestText), { gpu: 'cpu' });
    expect(embedded.dimensions).toBe(896);
    expect(embedded.vectors).toHaveLength(traces.length);
    for (const v of embedded.vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    // The same text gets the same vector (the benchmark repeats a family's request text), another text another one.
    const texts = traces.map(requestText);
    const other = texts.findIndex((x) => x !== texts[0]);
    expect(embedded.vectors[other]).not.toEqual(embedded.vectors[0]);
    texts.forEach((x, i) => {
      if (x === texts[0]) expect(embedded.vectors[i]).toEqual(embedded.vectors[0]);
    });
    const q = evaluateRouting(
      traces.map((t) => ({ id: t.id, text: requestText(t), label: t.task!, ...(t.split ? { split: t.split } : {}) })),
      { kind: 'kmeans', k: 3 },
      [1],
      embedded.vectors,
    );
    expect(q).toMatchObject({ protocol: 'fit-eval', fitted: 6, measured: 6 });
    console.log(`default-model embeddings, 3 families × (2 + 2): purity ${q.purity.mean.toFixed(3)}, ARI ${q.ari.mean.toFixed(3)}`);
  }, 600_000);
});
