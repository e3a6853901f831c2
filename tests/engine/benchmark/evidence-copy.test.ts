// End to end through real llama.cpp: on a generated 15-tool project whose frozen answers are the gold
// answers, the evidence-copy reference model (next-token distribution = token frequencies of the
// context) scores every served tool with the re-execute intervention, and LOTS must put each
// tool-using family's gold chain inside its top-|chain| tools. BM25 and Random get the same check;
// their results are printed (and BM25 must miss some chain).
//
// The fixture uses a soft frequency map (sharpness 0.2): there the log-likelihood of the answer moves
// linearly with how much of the answer's tokens a removed line held, which is the evidence. Sharper maps
// are dominated by the share of the context's most frequent token and rank lines by their byte mix.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../shared/benchmark/families/index';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';
import { bm25TaskRanking } from '../../../shared/selection/bm25';
import { registryDefs } from '../../../shared/benchmark/registry';
import { ensureFixtureModel } from '../../../electron/engine/gguf/fixture-cache';
import { loadModel, type LoadedModel } from '../../../electron/engine/llama/load';
import { createRenderer } from '../../../electron/engine/scoring/chat-template';
import { makeBenchProject } from '../../../electron/engine/benchmark/make';
import { taskRanking } from '../../../electron/engine/benchmark/project';
import { scoreBenchTraces } from '../../../electron/engine/benchmark/score';
import type { ProjectStore } from '../../../electron/engine/store';

const FIT = 4;
const toolFamilies = FAMILY_NAMES.filter((f) => FAMILIES[f].chainTools.length > 0);

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('LOTS on the built-in benchmark with the evidence-copy model (re-execute)', () => {
  let dir: string;
  let store: ProjectStore;
  let loaded: LoadedModel;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lots-bench-e2e-'));
    store = makeBenchProject(join(dir, 'project'), { seed: 'e2e', families: toolFamilies, fit: FIT, eval: 0, answers: 'gold' }).store;
    const path = ensureFixtureModel(join(process.cwd(), 'tests/.fixtures/models'), { kind: 'evidence-copy', sharpness: 0.2 });
    loaded = await loadModel(path, { gpu: 'cpu' });
  });

  afterAll(async () => {
    await loaded?.model.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("ranks every tool-using family's gold chain within its top-|chain| tools; BM25 and Random do worse", async () => {
    const traces = store.listTraces();
    expect(traces).toHaveLength(toolFamilies.length * FIT);
    const { run, appended } = await scoreBenchTraces(store, loaded.model, createRenderer(loaded.model), traces, {
      modelHash: 'evidence-copy',
      modelName: 'evidence-copy',
      parallel: 2,
    });
    expect(appended).toBe(traces.length);
    const scores = store.listScores(run);
    const registry = registryDefs('e2e', 15);
    const report: string[] = [];
    let bm25Hits = 0;
    let randomExpected = 0;
    const misses: string[] = [];
    for (const family of toolFamilies) {
      const chain = FAMILIES[family].chainTools;
      const ranking = taskRanking(scores, family);
      expect(ranking).toHaveLength(15); // every served tool has evidence under re-execution
      const lotsTop = ranking.slice(0, chain.length).map((r) => r.tool);
      const requests = traces.filter((t) => t.task === family).map((t) => t.turns[0]!.request);
      const bm25Top = bm25TaskRanking(registry, requests)
        .slice(0, chain.length)
        .map((r) => r.tool);
      const lotsHit = chain.every((c) => lotsTop.includes(c));
      const bm25Hit = chain.every((c) => bm25Top.includes(c));
      if (!lotsHit)
        misses.push(
          `${family}: chain ${chain.join('+')}, top ${ranking
            .slice(0, 4)
            .map((r) => `${r.tool} ${r.mean.toExponential(2)}`)
            .join(', ')}`,
        );
      bm25Hits += bm25Hit ? 1 : 0;
      // Random keeps |chain| tools drawn uniformly from 15: it holds the chain with probability 1/C(15, |chain|).
      randomExpected += 1 / binomial(15, chain.length);
      report.push(
        `${family.padEnd(15)} chain ${chain.join('+').padEnd(34)} LOTS ${lotsHit ? 'yes' : 'NO '} [${lotsTop.join(', ')}]  BM25 ${bm25Hit ? 'yes' : 'no '} [${bm25Top.join(', ')}]`,
      );
    }
    report.push(
      `families whose gold chain is in the top-|chain|: LOTS ${toolFamilies.length - misses.length}/${toolFamilies.length}, BM25 ${bm25Hits}/${toolFamilies.length}, Random ${randomExpected.toFixed(2)}/${toolFamilies.length} expected`,
    );
    console.log(report.join('\n'));
    expect(misses).toEqual([]);
    expect(bm25Hits).toBeLessThan(toolFamilies.length);
  });
});
