// `lots route --evaluate` (paper D.1, Table 10) on a built-in benchmark project: the families are known
// labels, the router is fitted on the fitting requests and measured on the evaluation requests, mean ±
// sd over three seeds; --embed model routes with a GGUF's own embeddings (here a generated fixture), --embed
// FILE with a sentence encoder (a tiny generated BERT).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { runCli, tempDir } from './io';
import { convertBertFolder } from '../../electron/engine/gguf/bert-gguf';
import { writeGguf } from '../../electron/engine/gguf/writer';
import { tinyBertFiles, tinyBertWeights, writeTinyBert } from '../engine/gguf/tiny-bert';

const t = tempDir('lots-route-cli-');
afterAll(() => t.cleanup());
const project = join(t.dir, 'bench');

describe('lots route --evaluate', () => {
  it('measures the TF-IDF router against the benchmark families: purity, NMI, ARI, clusters over 3 seeds', async () => {
    expect((await runCli(['bench', 'make', '--out', project, '--fit', '4', '--eval', '8'])).code).toBe(0);
    const r = await runCli(['route', '--project', project, '--evaluate', '--k', '10', '--json']);
    expect(r.code, r.err).toBe(0);
    const q = JSON.parse(r.out) as {
      protocol: string;
      fitted: number;
      measured: number;
      seeds: number[];
      perSeed: { purity: number; nmi: number; ari: number; clusters: number; labels: number }[];
      purity: { mean: number; sd: number };
      nmi: { mean: number; sd: number };
      ari: { mean: number; sd: number };
      clusters: { mean: number; sd: number };
      embedding: string;
    };
    expect(q).toMatchObject({ protocol: 'fit-eval', fitted: 40, measured: 80, seeds: [1, 2, 3], embedding: 'tfidf' });
    expect(q.perSeed.every((s) => s.labels === 10)).toBe(true);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(q.purity.mean).toBeCloseTo(mean(q.perSeed.map((s) => s.purity)), 12);
    expect(q.ari.mean).toBeCloseTo(mean(q.perSeed.map((s) => s.ari)), 12);
    for (const m of [q.purity, q.nmi, q.ari]) {
      expect(m.mean).toBeGreaterThan(0);
      expect(m.mean).toBeLessThanOrEqual(1);
    }
    // Nothing is saved: the labelled requests keep their families.
    expect(Object.keys(ProjectStore.open(project).readRoutes())).toHaveLength(0);
    const text = await runCli(['route', '--project', project, '--evaluate', '--k', '10', '--seeds', '4,5']);
    expect(text.out).toMatch(
      /routing quality against 10 known labels \(k-means, k = 10; hashed TF-IDF; fitted on 40 fitting requests, measured on 80 evaluation requests; seeds 4, 5\):/,
    );
    expect(text.out).toMatch(
      / {2}purity {3}\d\.\d{3} ± \d\.\d{3}\n {2}NMI {6}\d\.\d{3} ± \d\.\d{3}\n {2}ARI {6}-?\d\.\d{3} ± \d\.\d{3}\n {2}clusters \d+\.\d ± \d\.\d/,
    );
  });

  it("routes with a GGUF's own embeddings (--embed model), unit vectors of the model's width", async () => {
    const r = await runCli([
      'route',
      '--project',
      project,
      '--evaluate',
      '--k',
      '10',
      '--embed',
      'model',
      '--model',
      'fixture:random',
      '--gpu',
      'cpu',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const q = JSON.parse(r.out) as { embedding: string; dimensions: number; measured: number; model: string; purity: { mean: number } };
    expect(q).toMatchObject({ embedding: 'model', dimensions: 64, measured: 80 });
    expect(q.model).toMatch(/\.gguf$/);
    expect(q.purity.mean).toBeGreaterThan(0);
  });

  it('routes with a sentence-encoder GGUF named by --embed (a tiny BERT here), and refuses --model beside it', async () => {
    const encoder = join(t.dir, 'tiny-bert.gguf');
    writeTinyBert(join(t.dir, 'tiny-bert'), tinyBertFiles(tinyBertWeights(3)));
    writeGguf(encoder, convertBertFolder(join(t.dir, 'tiny-bert')).file);
    const r = await runCli(['route', '--project', project, '--evaluate', '--k', '10', '--embed', encoder, '--gpu', 'cpu', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ embedding: 'model', model: encoder, dimensions: 8, measured: 80 });
    const both = await runCli(['route', '--project', project, '--evaluate', '--embed', 'minilm', '--model', 'default']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--model is for --embed model; --embed minilm names the embedding model itself/);
  });

  it('says what is wrong: no labels to measure against, model flags without --embed model', async () => {
    const empty = join(t.dir, 'empty');
    ProjectStore.create(empty);
    const r = await runCli(['route', '--project', empty, '--evaluate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/has no requests with a task label to measure the routing against/);
    const m = await runCli(['route', '--project', project, '--evaluate', '--model', 'default']);
    expect(m.code).toBe(2);
    expect(m.err).toMatch(/--model is for --embed model/);
  });
});
