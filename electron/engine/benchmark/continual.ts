// Continual updates of a benchmark task's space with a real model (paper B.3, D.5): batches of its
// fitting requests are served under the current space (exploring under a serving cap), scored with
// re-execution, and folded into running scores by EMA; every update is recorded as a space version.
import { runContinualUpdates, type ContinualUpdate } from '../../../shared/benchmark/continual';
import type { MenuEvaluation } from '../../../shared/benchmark/sweep';
import type { Trace } from '../../../shared/trace/schema';
import type { ProjectStore } from '../store/project-store';
import { menuEvaluator, type TaskRequests } from './evaluate';
import { servedTraceId } from './project';
import { scoreBenchRows } from './score';
import type { BenchServer } from './server';

export interface BenchContinualOptions {
  task: string;
  requests: TaskRequests;
  registry: readonly string[];
  k: number;
  batchSize?: number;
  alpha?: number;
  cap?: number;
  epsilon?: number;
  seed: string;
  /** Measure each new space on the task's evaluation requests. */
  evaluate?: boolean;
  signal?: AbortSignal;
  onUpdate?: (update: ContinualUpdate) => void;
}

export async function runBenchContinual(store: ProjectStore, server: BenchServer, options: BenchContinualOptions): Promise<ContinualUpdate[]> {
  const evaluator = menuEvaluator(server, options.requests);
  let batchNo = 0;
  return runContinualUpdates<Trace, Trace>({
    task: options.task,
    registry: options.registry,
    stream: options.requests.fit,
    batchSize: options.batchSize ?? 4,
    k: options.k,
    alpha: options.alpha ?? 0.3,
    cap: options.cap,
    epsilon: options.epsilon ?? 0.25,
    seed: options.seed,
    serve: async (batch, signal) => {
      const tag = `.u${batchNo++}`;
      const served = await server.serve(
        batch.map((b) => ({
          base: b.request,
          menu: b.menu,
          id: servedTraceId(b.request.id, server.modelHash) + tag,
          meta: { served: { menu: b.explored ? 'explore' : 'space' } },
        })),
        { signal },
      );
      return served.map((s) => s.trace);
    },
    // Update scores stay with the updates (the versions keep their running scores); they do not join
    // the project's scoring run, which ranks the registry-served fitting traces.
    score: (traces, signal) =>
      scoreBenchRows(server.model, server.renderer, traces, {
        modelHash: server.modelHash,
        modelName: server.modelName,
        modelPath: server.loaded.path,
        signal,
      }),
    evaluate: options.evaluate ? (space, signal): Promise<MenuEvaluation> => evaluator(space, 'eval', signal) : undefined,
    onUpdate: (update) => {
      store.acceptSpace({
        task: options.task,
        tools: update.space,
        pinned: [],
        banned: [],
        rule: { kind: 'topk', k: options.k },
        note: `continual update after batch ${update.batch + 1} (${update.served} requests, ${update.explored} explored; EMA α=${options.alpha ?? 0.3})`,
        runningScores: update.runningScores,
      });
      options.onUpdate?.(update);
    },
    signal: options.signal,
  });
}
