// `lots bench stream`: the benchmark as a stream of batches (paper §3, Figures 3 and 15; B.3, D.5). Each
// family's requests arrive in batches; family j arrives at step 1 + j·arrivalEvery, and at each step the
// arrived family with the fewest completed batches receives its next batch. Arms on the same request
// order and evaluation set:
//   keep-all  every request served under the registry;
//   frozen    the space of the first update, kept;
//   updated   the first batch under the registry, later ones under the current space, each request explored
//             with probability ε (the space plus other registry tools: the whole registry, or up to
//             --explore-size; paper Figure 3, D.4); scored (re-execution), folded into the running scores
//             (EMA α), and the rule proposes the next space — applied at once (this is the experiment);
//   capped    (with --cap C) the cold start: the first batch on a random C-sample of the registry, later
//             requests explored with probability ε (the space plus other tools up to C), updated as above.
// Prompt tokens are averaged over the served requests, explored ones included (paper Table 12).
// The budget K of the top-K rule is each family's own (D.4: "the budget from its fit"): the bestK of its
// sweep in another project (--budgets-from), else of a budget sweep the stream runs on the family's first
// batch (served under the registry and scored: its fitting requests so far); --k gives every family one K.
// After each batch every arm's space is measured on the family's evaluation requests (memoised by menu).
// The record goes to stream.json; the updated arm's history to updates/<task>.json (the Space view's timeline).
import { resolve } from 'node:path';
import { chooseServingMenu } from '../../../shared/benchmark/exploration';
import { FAMILY_NAMES, type FamilyName } from '../../../shared/benchmark/family';
import { DEFAULT_PHI, DEFAULT_SUPPORT_TAU } from '../../../shared/lots/fit';
import { canonicalOrder, registryNames } from '../../../shared/benchmark/registry';
import { rngFor } from '../../../shared/lots/rng';
import type { MenuEvaluation } from '../../../shared/benchmark/sweep';
import { foldBatch } from '../../../shared/lots/update';
import { CURRENT_DECODE } from '../../../shared/project/run-record';
import { STREAM_ARMS, type StreamArm, type StreamArmBatch, type StreamMeasure, type StreamRecord, type StreamTask } from '../../../shared/project/streams';
import type { TaskUpdates, UpdateRule } from '../../../shared/project/updates';
import type { Trace } from '../../../shared/trace/schema';
import type { StoredScore } from '../../../shared/project/scores';
import { ProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';
import { menuEvaluator, sweepTask } from './evaluate';
import { machineDescription } from './demo';
import { makeBenchProject } from './make';
import { benchRequests, taskRanking } from './project';
import { scoreBenchRows } from './score';
import { openServing, type BenchServer, type ServingOptions } from './server';

export const STREAM_DEFAULTS = { batches: 4, batchSize: 4, eval: 8, alpha: 0.3, epsilon: 0.25, arrivalEvery: 1 } as const;

/**
 * Figure 15's protocol (paper D.5: every family, eight batches of 40 requests, the 15-tool registry, the
 * support-frequency rule at α = 0.2 and "threshold 5%", read as DEFAULT_SUPPORT_TAU/DEFAULT_PHI in
 * shared/lots/fit.ts), with the batches scaled to this project's 2-core CPU machine: 2 requests a batch
 * instead of 40 and 8 evaluation requests a family (4-request batches measured 8–25 min each on it, README). D.5's stationary comparison names no exploration, so
 * ε = 0. Explicit flags override any of these.
 */
export const STREAM_PRESETS = {
  figure15: {
    families: FAMILY_NAMES,
    batches: 8,
    batchSize: 2,
    eval: 8,
    registry: 15,
    alpha: 0.2,
    epsilon: 0,
    rule: { kind: 'support', tau: DEFAULT_SUPPORT_TAU, phi: DEFAULT_PHI },
  },
} as const satisfies Record<string, Partial<Omit<StreamOptions, 'rule' | 'families'>> & { families: readonly FamilyName[]; rule: UpdateRule }>;
export type StreamPreset = keyof typeof STREAM_PRESETS;

export interface StreamOptions extends ServingOptions {
  out: string;
  families: readonly FamilyName[];
  batches?: number;
  batchSize?: number;
  eval?: number;
  registry?: number;
  seed?: string;
  alpha?: number;
  /** One rule for every family (--k N, --rule support); absent: top-K at each family's fitted budget. */
  rule?: UpdateRule;
  /** A project whose sweeps give each family's budget (its bestK); absent: the stream sweeps each family's first batch. */
  budgetsFrom?: string;
  arrivalEvery?: number;
  cap?: number;
  epsilon?: number;
  /** Recorded with the stream: the preset the caller started from (its values are in the other options). */
  preset?: StreamPreset;
  /** Menu size of an explored request of the updated arm (no cap); default the registry. */
  exploreSize?: number;
  command?: string;
  signal?: AbortSignal;
  log: (line: string) => void;
  /** After each batch: the family, its batch, and every arm's figures. */
  onBatch?: (task: string, batch: number, arms: Partial<Record<StreamArm, StreamArmBatch>>) => void;
}

interface ArmState {
  space: string[];
  updates: TaskUpdates;
}

export async function runBenchStream(options: StreamOptions): Promise<StreamRecord> {
  const started = performance.now();
  const batches = options.batches ?? STREAM_DEFAULTS.batches;
  const batchSize = options.batchSize ?? STREAM_DEFAULTS.batchSize;
  const evalCount = options.eval ?? STREAM_DEFAULTS.eval;
  const alpha = options.alpha ?? STREAM_DEFAULTS.alpha;
  const fixedRule = options.rule;
  const arrivalEvery = options.arrivalEvery ?? STREAM_DEFAULTS.arrivalEvery;
  const epsilon = options.epsilon ?? STREAM_DEFAULTS.epsilon;
  for (const [name, n] of [
    ['batches', batches],
    ['batch-size', batchSize],
    ['eval', evalCount],
    ['arrival-every', arrivalEvery],
  ] as const) {
    if (!Number.isInteger(n) || n < 1) throw new ExpectedError('INVALID_INPUT', `--${name} must be a positive integer, got ${n}`);
  }
  if (!(alpha > 0 && alpha <= 1)) throw new ExpectedError('INVALID_INPUT', `--alpha must be in (0, 1], got ${alpha}`);
  if (!(epsilon >= 0 && epsilon <= 1)) throw new ExpectedError('INVALID_INPUT', `--epsilon must be in [0, 1], got ${epsilon}`);
  if (options.exploreSize !== undefined && !(Number.isInteger(options.exploreSize) && options.exploreSize >= 1))
    throw new ExpectedError('INVALID_INPUT', `--explore-size must be a positive integer, got ${options.exploreSize}`);
  if (options.families.length === 0) throw new ExpectedError('INVALID_INPUT', 'choose at least one family (--families a,b)');
  const fittedFrom = fixedRule === undefined && options.budgetsFrom !== undefined ? readBudgets(options.budgetsFrom, options.families) : undefined;

  const out = resolve(options.out);
  const made = makeBenchProject(out, { seed: options.seed, families: options.families, registry: options.registry, fit: batches * batchSize, eval: evalCount });
  const store = made.store;
  const { byTask, seed } = benchRequests(store);
  const registry = registryNames(seed, made.plan.registry);
  if (options.cap !== undefined && (!Number.isInteger(options.cap) || options.cap < 1 || options.cap >= registry.length)) {
    throw new ExpectedError(
      'INVALID_INPUT',
      `--cap must be an integer between 1 and ${registry.length - 1} (the registry has ${registry.length} tools), got ${options.cap}`,
    );
  }
  const server = await openServing(options);
  try {
    options.log(`loaded ${server.modelName} (${server.renderer.format} prompt format, ${server.threads} CPU threads) [${elapsed(started)}]`);
    const record: StreamRecord = {
      v: 1,
      model: server.loaded.path,
      modelName: server.modelName,
      modelHash: server.modelHash,
      command: options.command ?? 'lots bench stream',
      machine: machineDescription(),
      startedAt: new Date().toISOString(),
      decode: CURRENT_DECODE,
      options: {
        families: [...new Set(options.families)],
        batches,
        batchSize,
        eval: evalCount,
        registry: made.plan.registry,
        seed,
        alpha,
        ...(fixedRule
          ? { rule: fixedRule }
          : { budgets: fittedFrom ? { source: 'project' as const, from: resolve(options.budgetsFrom!) } : { source: 'sweep' as const } }),
        arrivalEvery,
        ...(options.preset ? { preset: options.preset } : {}),
        epsilon,
        ...(options.exploreSize !== undefined ? { exploreSize: Math.min(options.exploreSize, registry.length) } : {}),
        ...(options.cap !== undefined ? { cap: options.cap } : {}),
      },
      tasks: [],
      credited: [],
    };
    // Arrival order is the order asked for (the plan lists families in the benchmark's order).
    const families = [...new Set(options.families)];
    const tasks = new Map<string, StreamTask>();
    const arms = new Map<string, { updated: ArmState; capped?: ArmState; frozen?: string[] }>();
    const evaluators = new Map<string, (menu: readonly string[]) => Promise<MenuEvaluation>>();
    // Families whose budget the stream fits on their first batch (no --k, no --budgets-from).
    const toFit = new Set<string>();
    families.forEach((family, j) => {
      const requests = byTask.get(family)!;
      const known: UpdateRule | undefined = fixedRule ?? (fittedFrom ? { kind: 'topk', k: fittedFrom.get(family)! } : undefined);
      if (!known) toFit.add(family);
      tasks.set(family, {
        task: family,
        arrival: 1 + j * arrivalEvery,
        ...(known && !fixedRule ? { rule: known } : {}),
        arms: { 'keep-all': [], frozen: [], updated: [], ...(options.cap !== undefined ? { capped: [] } : {}) },
      });
      // Until its sweep, a family to fit holds a placeholder rule that no fold uses.
      const rule: UpdateRule = known ?? { kind: 'topk', k: 1 };
      const fresh = (): ArmState => ({ space: [], updates: { task: family, alpha, rule, run: '', batches: [] } });
      arms.set(family, { updated: fresh(), ...(options.cap !== undefined ? { capped: fresh() } : {}) });
      const evaluate = menuEvaluator(server, requests);
      const memo = new Map<string, Promise<MenuEvaluation>>();
      evaluators.set(family, (menu) => {
        const key = canonicalOrder(menu).join(',');
        let hit = memo.get(key);
        if (!hit) memo.set(key, (hit = evaluate(menu, 'eval', options.signal)));
        return hit;
      });
    });

    const total = families.length * batches;
    for (let step = 1, done = 0; done < total; step++) {
      options.signal?.throwIfAborted();
      const arrived = families.filter((f) => tasks.get(f)!.arrival <= step && tasks.get(f)!.arms.updated.length < batches);
      if (arrived.length === 0) continue;
      const family = arrived.reduce((best, f) => (tasks.get(f)!.arms.updated.length < tasks.get(best)!.arms.updated.length ? f : best));
      const task = tasks.get(family)!;
      const state = arms.get(family)!;
      const b = task.arms.updated.length; // 0-based batch of this family
      const requests = byTask.get(family)!.fit.slice(b * batchSize, (b + 1) * batchSize);
      const evaluate = evaluators.get(family)!;
      const result: Partial<Record<StreamArm, StreamArmBatch>> = {};

      // keep-all
      const all = await serveBatch(
        server,
        requests,
        requests.map(() => registry),
        options.signal,
      );
      result['keep-all'] = {
        batch: b + 1,
        step,
        served: all.measure,
        menuSize: registry.length,
        explored: 0,
        space: [...registry],
        eval: measure(await evaluate(registry)),
      };

      // updated: first batch under the registry, later ones under its current space, explored with probability ε
      const fitBudget = toFit.has(family)
        ? async (rows: readonly StoredScore[], served: readonly Trace[]): Promise<UpdateRule> => {
            const k = await sweepFirstBatch(server, store, family, rows, served, options.signal);
            toFit.delete(family);
            const fitted: UpdateRule = { kind: 'topk', k: k.bestK };
            task.rule = fitted;
            if (state.capped) state.capped.updates = { ...state.capped.updates, rule: fitted };
            options.log(`  ${family}: budget K = ${k.bestK} from its sweep on batch 1 (fitting accuracy ${k.curve}) [${elapsed(started)}]`);
            return fitted;
          }
        : undefined;
      const updated = await updateArm(server, family, state.updated, requests, b, step, {
        registry,
        seed,
        signal: options.signal,
        evaluate,
        epsilon,
        exploreSize: options.exploreSize,
        fitBudget,
      });
      result.updated = updated;
      if (b === 0) state.frozen = [...updated.space];
      const frozenSpace = state.frozen!;
      if (b === 0) result.frozen = { ...updated };
      else {
        const served = await serveBatch(
          server,
          requests,
          requests.map(() => frozenSpace),
          options.signal,
        );
        result.frozen = {
          batch: b + 1,
          step,
          served: served.measure,
          menuSize: frozenSpace.length,
          explored: 0,
          space: [...frozenSpace],
          eval: measure(await evaluate(frozenSpace)),
        };
      }
      if (state.capped)
        result.capped = await updateArm(server, family, state.capped, requests, b, step, {
          registry,
          seed,
          signal: options.signal,
          evaluate,
          cap: options.cap,
          epsilon,
        });

      for (const arm of STREAM_ARMS) {
        const r = result[arm];
        if (r) (task.arms[arm] ??= []).push(r);
      }
      done++;
      record.credited.push({ step, task: family, arms: creditedAccuracy([...tasks.values()], step, families.length) });
      record.tasks = [...tasks.values()];
      record.seconds = (performance.now() - started) / 1000;
      store.writeStream(record);
      const u = state.updated.updates;
      store.writeUpdates({ ...u, run: u.run || 'stream' });
      options.onBatch?.(family, b + 1, result);
      options.log(
        `step ${step}: ${family} batch ${b + 1}/${batches} — eval accuracy keep-all ${fmt(result['keep-all'].eval.accuracy)}, frozen ${fmt(result.frozen.eval.accuracy)}, updated ${fmt(updated.eval.accuracy)}${result.capped ? `, capped ${fmt(result.capped.eval.accuracy)}` : ''}; updated space ${updated.space.join(', ') || '(none)'}${updated.explored ? ` (${updated.explored} explored)` : ''} [${elapsed(started)}]`,
      );
    }
    record.finishedAt = new Date().toISOString();
    record.seconds = (performance.now() - started) / 1000;
    store.writeStream(record);
    return record;
  } finally {
    await server.close();
  }
}

interface ArmContext {
  registry: readonly string[];
  seed: string;
  signal?: AbortSignal;
  evaluate: (menu: readonly string[]) => Promise<MenuEvaluation>;
  cap?: number;
  epsilon?: number;
  exploreSize?: number;
  /** The family's budget is not known yet: fit it on this (first) batch's scores and served requests. */
  fitBudget?: (rows: readonly StoredScore[], requests: readonly Trace[]) => Promise<UpdateRule>;
}

/** Serve a batch under the arm's menus, score it with re-execution, fold it, move to the proposal. */
async function updateArm(
  server: BenchServer,
  family: string,
  state: ArmState,
  requests: readonly Trace[],
  b: number,
  step: number,
  ctx: ArmContext,
): Promise<StreamArmBatch> {
  const arm = ctx.cap !== undefined ? 'capped' : 'updated';
  const plan = requests.map((request, i) =>
    chooseServingMenu({
      firstBatch: b === 0,
      space: state.space,
      registry: ctx.registry,
      cap: ctx.cap,
      epsilon: ctx.epsilon ?? 0,
      exploreSize: ctx.exploreSize,
      rng: rngFor(ctx.seed, 'stream', arm, family, b, i),
    }),
  );
  const served = await serveBatch(
    server,
    requests,
    plan.map((p) => p.menu),
    ctx.signal,
    (request, i) => `${request.id}.${arm}.b${b + 1}.${i}`,
  );
  const rows = await scoreBenchRows(server.model, server.renderer, served.traces, {
    modelHash: server.modelHash,
    modelName: server.modelName,
    modelPath: server.loaded.path,
    threads: server.threads,
    signal: ctx.signal,
  });
  ctx.signal?.throwIfAborted();
  if (!state.updates.run && rows[0]) state.updates.run = rows[0].run;
  if (ctx.fitBudget && rows.some((r) => Object.keys(r.scores).length > 0)) state.updates = { ...state.updates, rule: await ctx.fitBudget(rows, requests) };
  const figures = {
    batch: b + 1,
    step,
    served: served.measure,
    menuSize: mean(plan.map((p) => p.menu.length)),
    explored: plan.filter((p) => p.explored).length,
  };
  // Nothing scored (every answer empty): the space stays as it was.
  if (!rows.some((r) => Object.keys(r.scores).length > 0)) return { ...figures, space: [...state.space], eval: measure(await ctx.evaluate(state.space)) };
  const batch = foldBatch(family, state.updates, {
    rows,
    traces: requests.length,
    source: `stream step ${step}`,
    label: `${arm} batch ${b + 1}`,
    at: new Date().toISOString(),
  });
  const space = batch.proposed;
  const evalOfSpace = measure(await ctx.evaluate(space));
  batch.accuracy = evalOfSpace.accuracy;
  state.updates = { ...state.updates, batches: [...state.updates.batches, batch] };
  state.space = space;
  return { ...figures, space: [...space], eval: evalOfSpace, running: batch.running };
}

async function serveBatch(
  server: BenchServer,
  requests: readonly Trace[],
  menus: readonly (readonly string[])[],
  signal?: AbortSignal,
  id?: (request: Trace, i: number) => string,
): Promise<{ traces: Trace[]; measure: StreamMeasure }> {
  const served = await server.serve(
    requests.map((base, i) => ({ base, menu: menus[i]!, ...(id ? { id: id(base, i) } : {}) })),
    { signal },
  );
  signal?.throwIfAborted();
  return {
    traces: served.map((s) => s.trace),
    measure: { accuracy: served.filter((s) => s.correct).length / served.length, n: served.length, promptTokens: mean(served.map((s) => s.promptTokens)) },
  };
}

/**
 * The family's budget from its first batch (paper B.3: the smallest K with the best fitting accuracy):
 * the batch's requests served under the top-K of the batch's scores for K = 1…|A_t|, stored as the
 * project's sweep of the task (the Budget view shows it).
 */
async function sweepFirstBatch(
  server: BenchServer,
  store: ProjectStore,
  family: string,
  rows: readonly StoredScore[],
  requests: readonly Trace[],
  signal: AbortSignal | undefined,
): Promise<{ bestK: number; curve: string }> {
  const ranking = taskRanking(rows, family);
  const sweep = await sweepTask(store, server, family, { fit: [...requests], eval: [] }, ranking, { run: rows[0]!.run, ...(signal ? { signal } : {}) });
  const bestK = sweep.bestK ?? ranking.length;
  return { bestK, curve: sweep.points.map((p) => `K=${p.k}: ${p.accuracy.toFixed(2)}`).join(', ') };
}

/** The bestK of each family's sweep in the project at `dir` (paper D.4: each family keeps the budget of its own fit). */
export function readBudgets(dir: string, families: readonly string[]): Map<string, number> {
  const store = ProjectStore.open(resolve(dir));
  const out = new Map<string, number>();
  const missing: string[] = [];
  for (const f of families) {
    const k = store.readSweep(f)?.bestK;
    if (k === undefined) missing.push(f);
    else out.set(f, k);
  }
  if (missing.length > 0)
    throw new ExpectedError(
      'NOT_FOUND',
      `${store.dir} has no budget sweep for ${missing.join(', ')} (--budgets-from takes each family's bestK from its sweep); run \`lots sweep --project ${dir}\` there, or give every family one budget with --k`,
    );
  return out;
}

/** Per arm over the whole stream (paper Table 12): prompt tokens averaged over the served requests,
 * explored ones included and update scoring excluded; how many requests were served and explored. */
export function streamServingCost(record: StreamRecord): Partial<Record<StreamArm, { requests: number; explored: number; promptTokens: number }>> {
  const out: Partial<Record<StreamArm, { requests: number; explored: number; promptTokens: number }>> = {};
  for (const arm of STREAM_ARMS) {
    const batches = record.tasks.flatMap((t) => t.arms[arm] ?? []);
    if (batches.length === 0) continue;
    const requests = batches.reduce((n, b) => n + b.served.n, 0);
    const tokens = batches.reduce((n, b) => n + b.served.promptTokens * b.served.n, 0);
    out[arm] = { requests, explored: batches.reduce((n, b) => n + b.explored, 0), promptTokens: requests > 0 ? tokens / requests : 0 };
  }
  return out;
}

/** A_t = (1/T)·Σ over arrived families of their arm's latest eval accuracy (families not yet arrived count 0). */
export function creditedAccuracy(tasks: readonly StreamTask[], step: number, totalFamilies: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const arm of STREAM_ARMS) {
    let sum = 0;
    let any = false;
    for (const t of tasks) {
      const series = t.arms[arm];
      if (!series) continue;
      const last = series.filter((b) => b.step <= step).at(-1);
      if (last) {
        sum += last.eval.accuracy;
        any = true;
      }
    }
    if (any) out[arm] = sum / totalFamilies;
  }
  return out;
}

function measure(e: MenuEvaluation): StreamMeasure {
  return { accuracy: e.accuracy, n: e.n, promptTokens: e.promptTokens };
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function fmt(x: number): string {
  return x.toFixed(2);
}

function elapsed(started: number): string {
  const s = Math.round((performance.now() - started) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
