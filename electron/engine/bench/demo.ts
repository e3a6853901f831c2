// `lots demo`: the whole LOTS loop on the built-in benchmark (Algorithm 1: serve → score → aggregate →
// prune → deploy → evaluate). Make a project, serve the fitting requests under the registry, score them
// with re-execution, rank each task's tools, sweep the budget on the fitting requests, and evaluate the
// LOTS space against the baselines on the evaluation requests.
import type { BenchOptions } from '../../../shared/bench/generate';
import { comparisonRow, type ComparisonRow } from '../../../shared/bench/report';
import type { SweepProgress } from '../../../shared/bench/sweep';
import type { GpuChoice } from '../llama/runtime';
import { evaluateTask, sweepTask } from './evaluate';
import { makeBenchProject } from './make';
import { resolveModelArg } from './model-arg';
import { benchRequests, taskRanking } from './project';
import { scoreBenchTraces } from './score';
import { serveProject } from './serve-project';
import { BenchServer } from './server';

export const DEMO_DEFAULTS = { fit: 4, eval: 8, draws: 3 } as const;

export interface DemoOptions extends BenchOptions {
  model: string;
  out: string;
  gpu?: GpuChoice;
  parallel?: number;
  maxTokens?: number;
  draws?: number;
  signal?: AbortSignal;
  log: (line: string) => void;
  progress?: (stage: string, done: number, total: number) => void;
}

export interface DemoResult {
  dir: string;
  rows: ComparisonRow[];
  seconds: number;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const { log } = options;
  const made = makeBenchProject(options.out, { ...options, fit: options.fit ?? DEMO_DEFAULTS.fit, eval: options.eval ?? DEMO_DEFAULTS.eval });
  const store = made.store;
  log(`1/6 made ${store.dir}: ${made.traces} requests, ${made.plan.families.length} families × (${made.plan.fit} fit + ${made.plan.eval} eval), registry of ${made.plan.registry} tools, seed ${made.plan.seed}`);
  const server = await BenchServer.open(resolveModelArg(options.model), { gpu: options.gpu, parallel: options.parallel, maxTokens: options.maxTokens, signal: options.signal });
  try {
    log(`2/6 loaded ${server.modelName} (${server.renderer.format} prompt format) [${elapsed()}]`);
    const served = await serveProject(store, server, { split: 'fit', menu: 'registry', signal: options.signal, onProgress: (d, t) => options.progress?.('serve', d, t) });
    log(`3/6 served ${served.traces.length} fitting requests under the whole registry [${elapsed()}]`);
    const scored = await scoreBenchTraces(store, server.model, server.renderer, served.traces, {
      modelHash: server.modelHash,
      modelName: server.modelName,
      modelPath: server.loaded.path,
      parallel: options.parallel,
      signal: options.signal,
      onProgress: (d, t) => options.progress?.('score', d, t),
    });
    log(`4/6 scored them with the re-execute intervention (run ${scored.run}) [${elapsed()}]`);
    const { byTask, registry, seed } = benchRequests(store);
    const scores = store.listScores(scored.run);
    const rows: ComparisonRow[] = [];
    const stageProgress = (stage: string) => (p: SweepProgress) => options.progress?.(stage, p.done, p.total);
    for (const [task, requests] of byTask) {
      const ranking = taskRanking(scores, task);
      if (ranking.length === 0) {
        log(`   ${task}: no tool was scored (empty answers?), skipped`);
        continue;
      }
      const sweep = await sweepTask(store, server, task, requests, ranking, { run: scored.run, signal: options.signal, onProgress: stageProgress(`sweep ${task}`) });
      log(`5/6 ${task}: budget sweep K=1…${ranking.length}, fitting accuracy ${sweep.points.map((p) => p.accuracy.toFixed(2)).join(' ')} → K=${sweep.bestK} [${elapsed()}]`);
      const evaluation = await evaluateTask(store, server, task, requests, registry, { seed, draws: options.draws ?? DEMO_DEFAULTS.draws, signal: options.signal, onProgress: stageProgress(`evaluate ${task}`) });
      const row = comparisonRow(evaluation.sweep);
      if (row) rows.push(row);
    }
    log(`6/6 evaluated LOTS against keep-all, no-tools, random and BM25 (${server.generated} answers generated) [${elapsed()}]`);
    return { dir: store.dir, rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await server.close();
  }
}
