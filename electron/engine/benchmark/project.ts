// Reading a benchmark project: its requests (unserved benchmark traces), the traces a model served,
// the registry, and a task's LOTS ranking from the stored scores.
import { aggregateOneTask } from '../../../shared/lots/aggregate';
import { rankTools, type Scored } from '../../../shared/lots/rank';
import { registryDefs } from '../../../shared/benchmark/registry';
import { isBenchTrace, readBenchMeta } from '../../../shared/benchmark/trace';
import type { StoredScore } from '../../../shared/project/scores';
import type { ToolDef, Trace } from '../../../shared/trace/schema';

import type { ProjectStore } from '../store/project-store';
import type { BenchVariant } from '../../../shared/benchmark/variant';
import { ExpectedError } from '../../../shared/api/errors';

export interface BenchRequests {
  seed: string;
  /** The benchmark variant of every request (variant.ts). */
  variant: BenchVariant;
  registry: ToolDef[];
  /** Task → split → requests in index order. */
  byTask: Map<string, { fit: Trace[]; eval: Trace[] }>;
}

/** A served trace records what served it in meta.served. */
export function isServedTrace(trace: Trace): boolean {
  return typeof trace.meta?.served === 'object' && trace.meta.served !== null;
}

/** Id of the trace a model served for a request: `<request id>@<first 8 hex of the model hash>`. */
export function servedTraceId(requestId: string, modelHash: string): string {
  return `${requestId}@${modelHash.slice(0, 8)}`;
}

export function benchRequests(store: ProjectStore): BenchRequests {
  const requests = store.listTraces().filter((t) => isBenchTrace(t) && !isServedTrace(t));
  if (requests.length === 0) {
    throw new ExpectedError('NOT_FOUND', `${store.dir} holds no benchmark requests; create a benchmark project with \`lots bench make --out <dir>\``);
  }
  const metas = requests.map(readBenchMeta);
  const { seed, registry } = metas[0]!;
  const variant = metas[0]!.variant ?? 'faithful';
  const other = metas.find((m) => m.seed !== seed || m.registry !== registry || (m.variant ?? 'faithful') !== variant);
  if (other) {
    throw new ExpectedError(
      'INVALID_INPUT',
      `${store.dir} mixes benchmark requests of different seeds, registries or variants (seed ${seed}/${registry} tools/${variant} and seed ${other.seed}/${other.registry} tools/${other.variant ?? 'faithful'}); keep one benchmark per project`,
    );
  }
  const byTask = new Map<string, { fit: Trace[]; eval: Trace[] }>();
  requests.forEach((t, i) => {
    const task = t.task ?? metas[i]!.family;
    let entry = byTask.get(task);
    if (!entry) byTask.set(task, (entry = { fit: [], eval: [] }));
    entry[t.split === 'eval' ? 'eval' : 'fit'].push(t);
  });
  for (const entry of byTask.values()) {
    for (const list of [entry.fit, entry.eval]) list.sort((a, b) => readBenchMeta(a).index - readBenchMeta(b).index);
  }
  return { seed, variant, registry: registryDefs(seed, registry), byTask: new Map([...byTask].sort((a, b) => (a[0] < b[0] ? -1 : 1))) };
}

/** The scoring run to rank from: the given one, else this model's latest re-execute run, else its latest run. */
export function chooseRun(store: ProjectStore, modelHash: string | undefined, run?: string): string {
  const runs = store.listRuns();
  if (run !== undefined) {
    if (!runs.includes(run)) throw new ExpectedError('NOT_FOUND', `no scores of run "${run}" in ${store.dir}; runs: ${runs.join(', ') || '(none)'}`);
    return run;
  }
  const mine = modelHash ? runs.filter((r) => r.startsWith(`${modelHash}|`)) : runs;
  const pick = mine.filter((r) => r.includes('|reexecute|')).at(-1) ?? mine.at(-1);
  if (!pick) {
    throw new ExpectedError(
      'NOT_FOUND',
      `${store.dir} has no scores${modelHash ? ' from this model' : ''}; serve and score the fitting requests first (\`lots serve\`, then \`lots score --intervention reexecute\`)`,
    );
  }
  return pick;
}

/** The task's LOTS ranking over A_t from one run's fitting scores. */
export function taskRanking(scores: readonly StoredScore[], task: string): Scored[] {
  return rankTools(
    aggregateOneTask(
      task,
      scores.filter((s) => s.task === task),
    ).tools,
  ).map((t) => ({ tool: t.tool, mean: t.mean }));
}
