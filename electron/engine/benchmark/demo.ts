// `lots demo`: the whole LOTS loop on the built-in benchmark (Algorithm 1: serve → score → aggregate →
// prune → deploy → evaluate). Make a project, serve the fitting requests under the registry (in two
// imports: every family's first half, then its second half), score them with re-execution, rank each
// task's tools, sweep the budget on the fitting requests, fold the two imports as the task's update
// batches (top-K at the sweep's K: the History view's story, at no model cost), and evaluate the LOTS
// space against the baselines on the evaluation requests. With several registry sizes (paper
// Figure 1(c)) the same families run at each size, each in its own project, and the demo record keeps
// keep-all and LOTS accuracy and prompt tokens against the registry size.
//
// Every stage is stored as it completes, so running the same command again on the same folder resumes:
// served and scored traces are skipped, sweep points and baselines already measured are reused, batches
// already folded are not folded again.
import { existsSync, readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { BenchOptions, BenchPlan } from '../../../shared/benchmark/generate';
import { DEFAULT_SEED, planBenchmark } from '../../../shared/benchmark/generate';
import { comparisonRow, type ComparisonRow } from '../../../shared/benchmark/comparison-table';
import type { SweepProgress } from '../../../shared/benchmark/sweep';
import { DEMO_RECORD_VERSION, type DemoRecord, type GrowthPoint, type MethodPoint } from '../../../shared/project/demo';
import { CURRENT_DECODE } from '../../../shared/project/run-record';
import { seedList, seedPoint } from '../../../shared/benchmark/seeds';

import { ProjectStore } from '../store/project-store';
import { makeBenchProject } from './make';
import { benchRequests, taskRanking } from './project';
import { evaluateBenchTasks, sweepBenchTasks, type TaskOutcome } from './tasks';
import { scoreBenchTraces } from './score';
import { serveProject } from './serve-project';
import { openServing, type BenchServer, type ServingOptions } from './server';
import { ExpectedError } from '../../../shared/api/errors';
import { ALL_BASELINES, SELECTION_METHOD_IDS, selectionMethod, type BaselineName } from '../../../shared/selection/registry';
import { sameSet } from '../../../shared/base/sets';
import type { Scored } from '../../../shared/lots/rank';
import { DEFAULT_UPDATE_ALPHA } from '../../../shared/project/updates';
import { ProjectIndex } from '../read-model/project-index';
import { foldTaskUpdates } from '../read-model/updates';
import { formatMinSec } from '../../../shared/text';

/**
 * Split sizes. `quick` runs all ten families in about 27 minutes on a 2-core AMD EPYC (two llama.cpp
 * threads, 52 CPU-minutes) with the 0.5B default model: 2 fitting and 4 evaluation requests per family,
 * 2 Random draws, budgets K = 1…4 (the longest gold chain has three tools). `standard` is sized for an
 * about 2½-hour run on a 2-core CPU (estimated from a measured run): 8 / 40 per family, so the paired intervals over 400 evaluation
 * requests mean something. `full` is the paper's protocol: 80 / 320, K = 1…|A_t|.
 */
export const DEMO_PRESETS = {
  quick: { fit: 2, eval: 4, draws: 2, kMax: 4 as number | undefined },
  standard: { fit: 8, eval: 40, draws: 3, kMax: 4 as number | undefined },
  full: { fit: 80, eval: 320, draws: 3, kMax: undefined as number | undefined },
} as const;
export const DEMO_PRESET_NAMES = Object.keys(DEMO_PRESETS) as DemoPresetName[];
export type DemoPresetName = keyof typeof DEMO_PRESETS;
/** The quick preset's sizes (the Studio's demo project uses them too). */
export const DEMO_DEFAULTS = DEMO_PRESETS.quick;

export interface DemoOptions extends Omit<BenchOptions, 'registry'>, ServingOptions {
  out: string;
  preset?: DemoPresetName;
  /** Registry sizes; the first one's project is `out`, the others go to `out/growth/registry-N`. */
  registries?: readonly number[];
  /** Seeds of the benchmark draw (default 1): the first is `seed` in `out`, the others go to `out/seeds/seed-S`. */
  seeds?: number;
  kMax?: number;
  draws?: number;
  /** The baselines LOTS is compared with (default: every one of the registry, paper Table 1). */
  baselines?: readonly BaselineName[];
  /** Recorded in the demo record. */
  command?: string;
  signal?: AbortSignal;
  log: (line: string) => void;
  progress?: (stage: string, done: number, total: number) => void;
  /** Every stage with where it is (which registry's project, which family): what the Studio's demo job shows. */
  onStage?: (event: DemoStageEvent) => void;
}

/** The fitting requests are served in this many imports: each family's update history gets as many batches. */
export const DEMO_FIT_BATCHES = 2;

/** The stages of a demo, in order; sweep and evaluate alternate family by family. */
export const DEMO_STAGES = ['load', 'make', 'serve', 'score', 'sweep', 'evaluate'] as const;
export type DemoStage = (typeof DEMO_STAGES)[number];

/**
 * Where a demo is. `done`/`total` count the stage's own units: 0/1 then 1/1 for load and make, requests
 * for serve, traces for score, families for sweep and evaluate (with the family at hand in `task` and its
 * budgets or measurements in `inner`). `project` events close a registry size's project (growth).
 */
export interface DemoStageEvent {
  stage: DemoStage | 'project';
  done: number;
  total: number;
  /** The registry size being run, and its project's position among the demo's projects (0-based). */
  registry: number;
  project: number;
  projects: number;
  task?: string;
  inner?: { done: number; total: number; cached?: boolean };
  detail?: string;
}

export interface DemoProjectResult {
  registry: number;
  seed: string;
  dir: string;
  rows: ComparisonRow[];
  seconds: number;
}

export interface DemoResult {
  dir: string;
  /** The first registry size's rows (the demo table). */
  rows: ComparisonRow[];
  projects: DemoProjectResult[];
  record: DemoRecord;
  seconds: number;
}

export function growthDir(out: string, registry: number): string {
  return join(out, 'growth', `registry-${registry}`);
}

/** Where a `--seeds` demo keeps its other seeds' projects, inside its own folder. */
const SEEDS_FOLDER = 'seeds';

export function seedDir(out: string, seed: string): string {
  return join(out, SEEDS_FOLDER, `seed-${seed}`);
}

export function machineDescription(): string {
  const list = cpus();
  const model = list[0]?.model?.trim() || 'unknown CPU';
  return `${list.length} × ${model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${process.platform}`;
}

/** How often, at most, a running demo rewrites demo.json with its seconds so far. */
const CHECKPOINT_MS = 30_000;

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = performance.now();
  const out = resolve(options.out);
  const preset = DEMO_PRESETS[options.preset ?? 'quick'];
  const fit = options.fit ?? preset.fit;
  const evalCount = options.eval ?? preset.eval;
  const draws = options.draws ?? preset.draws;
  const kMax = options.kMax ?? preset.kMax;
  const registries = [...new Set(options.registries?.length ? options.registries : [15])];
  const seeds = seedList(options.seed ?? DEFAULT_SEED, options.seeds ?? 1);
  if (seeds.length > 1 && registries.length > 1) {
    throw new ExpectedError(
      'INVALID_INPUT',
      `--seeds ${seeds.length} runs one registry size; give one --registry (got ${registries.join(',')}), or run the sizes with one seed`,
    );
  }
  const plans =
    seeds.length > 1
      ? seeds.map((seed) => planBenchmark({ ...options, seed, fit, eval: evalCount, registry: registries[0] }))
      : registries.map((registry) => planBenchmark({ ...options, fit, eval: evalCount, registry }));
  const first = plans[0]!;
  const dirOf = (plan: BenchPlan) => (plan === first ? out : seeds.length > 1 ? seedDir(out, plan.seed) : growthDir(out, plan.registry));
  // The seed folders may come first (a seed run on its own, then joined): the first project is made beside them.
  const besides = seeds.length > 1 ? [SEEDS_FOLDER] : [];
  const existing = openExisting(out, first, besides);
  const priorSeconds = existing?.readDemo()?.seconds ?? 0;
  const record: DemoRecord = existing?.readDemo() ?? {
    v: DEMO_RECORD_VERSION,
    model: options.modelPath,
    modelName: '',
    modelHash: '',
    command: options.command ?? 'lots demo',
    machine: machineDescription(),
    startedAt: new Date().toISOString(),
    decode: CURRENT_DECODE,
    preset: {
      name: options.preset ?? 'quick',
      families: first.families,
      fit,
      eval: evalCount,
      registry: first.registry,
      draws,
      ...(kMax !== undefined ? { kMax } : {}),
      seed: first.seed,
      ...(seeds.length > 1 ? { seeds: seeds.length } : {}),
      ...(first.variant !== 'faithful' ? { variant: first.variant } : {}),
    },
    growth: [],
  };
  if (seeds.length > 1) record.preset.seeds = seeds.length;
  if (existing) {
    options.log(`resuming the demo in ${out} (what is stored is reused)`);
    // A sitting with another command line (more seeds, other baselines) is recorded beside the first; one
    // that differs only in --threads is the same run (threads change the speed, not a result).
    const command = options.command;
    const seen = [record.command, ...(record.resumedWith ?? [])].map(withoutThreads);
    if (command && !seen.includes(withoutThreads(command))) record.resumedWith = [...(record.resumedWith ?? []), command];
  }
  // demo.json is written once the project exists and again at least every CHECKPOINT_MS and at each
  // step's end, its seconds the sum over sittings: a run stopped and resumed keeps its start and all but
  // the last moments of each sitting (a resume of a finished run adds its few seconds).
  let savedAt = 0;
  const checkpoint = (force: boolean) => {
    const now = performance.now();
    if (!force && now - savedAt < CHECKPOINT_MS) return;
    savedAt = now;
    record.seconds = priorSeconds + (now - started) / 1000;
    ProjectStore.open(out).writeDemo(record);
  };
  const at = (project: number) => ({ registry: plans[project]!.registry, project, projects: plans.length });
  options.onStage?.({ stage: 'load', done: 0, total: 1, ...at(0), detail: options.modelPath });
  const server = await openServing(options);
  try {
    if (record.modelHash && record.modelHash !== server.modelHash) {
      throw new ExpectedError(
        'INVALID_INPUT',
        `${out} holds a demo run with another model (${record.modelName}); choose a new output folder (--out) or use that model`,
      );
    }
    record.model = server.loaded.path;
    record.modelName = server.modelName;
    record.modelHash = server.modelHash;
    options.log(`loaded ${server.modelName} (${server.renderer.format} prompt format, ${server.threads} CPU threads) [${elapsedSince(started)}]`);
    options.onStage?.({ stage: 'load', done: 1, total: 1, ...at(0), detail: `${server.modelName}, ${server.threads} CPU threads` });
    const projects: DemoProjectResult[] = [];
    for (const [index, plan] of plans.entries()) {
      const dir = dirOf(plan);
      const sizes = `${plan.families.length} famil${plan.families.length === 1 ? 'y' : 'ies'} × (${plan.fit} fit + ${plan.eval} eval), registry of ${plan.registry} tools`;
      options.onStage?.({ stage: 'make', done: 0, total: 1, ...at(index), detail: sizes });
      const reused = plan === first ? existing : openExisting(dir, plan);
      const store =
        reused ?? makeBenchProject(dir, { ...options, seed: plan.seed, fit, eval: evalCount, registry: plan.registry }, plan === first ? besides : []).store;
      options.onStage?.({ stage: 'make', done: 1, total: 1, ...at(index), detail: `${sizes}${reused ? ' (made before: resumed)' : ''}` });
      if (plans.length > 1) options.log(`— ${seeds.length > 1 ? `seed ${plan.seed}` : `registry of ${plan.registry} tools`} (${relative(out, dir) || '.'}) —`);
      checkpoint(true);
      const stage = (event: Omit<DemoStageEvent, 'registry' | 'project' | 'projects'>) => {
        options.onStage?.({ ...event, ...at(index) });
        checkpoint(event.done === event.total);
      };
      const result = await runDemoProject(store, server, plan, { ...options, kMax, draws, started, stage });
      projects.push(result);
      stage({ stage: 'project', done: index + 1, total: plans.length });
      if (seeds.length > 1) {
        // A seed folder run on its own before (its own demo.json) brings that time with it.
        // It says how it was served too: a seed folder with its own record as that record says, one this demo made as the demo.
        const ownRecord = dir === out ? undefined : store.readDemo();
        const own = ownRecord?.seconds;
        const decode = ownRecord ? ownRecord.decode : record.decode;
        const point = {
          ...seedPoint(plan.seed, relative(out, dir) || '.', result.rows),
          ...(own !== undefined ? { seconds: own } : {}),
          ...(decode ? { decode } : {}),
        };
        record.seeds = [...(record.seeds ?? []).filter((p) => p.seed !== plan.seed), point].sort((a, b) => seeds.indexOf(a.seed) - seeds.indexOf(b.seed));
      } else if (plans.length > 1) {
        const point = growthPoint(result, relative(out, dir) || '.', plan.families);
        record.growth = [...record.growth.filter((g) => g.registry !== plan.registry), point].sort((a, b) => a.registry - b.registry);
      }
      if (index === plans.length - 1) record.finishedAt = new Date().toISOString();
      checkpoint(true);
    }
    options.log(`done: ${server.generated} answers generated [${elapsedSince(started)}]`);
    return { dir: out, rows: projects[0]!.rows, projects, record, seconds: (performance.now() - started) / 1000 };
  } finally {
    await server.close();
  }
}

/** A folder that already holds this benchmark (same seed, registry and sizes): the demo resumes in it. */
function openExisting(dir: string, plan: BenchPlan, besides: readonly string[] = []): ProjectStore | undefined {
  if (!existsSync(dir) || readdirSync(dir).every((e) => besides.includes(e))) return undefined;
  if (!existsSync(join(dir, 'project.json'))) {
    throw new ExpectedError('INVALID_INPUT', `${dir} already exists and is not a project; choose a new output folder (--out)`);
  }
  const store = ProjectStore.open(dir);
  const { byTask, registry, seed, variant } = benchRequests(store);
  const sizes = [...byTask.values()][0];
  const same =
    seed === plan.seed &&
    variant === plan.variant &&
    registry.length === plan.registry &&
    byTask.size === plan.families.length &&
    plan.families.every((f) => byTask.has(f)) &&
    sizes?.fit.length === plan.fit &&
    sizes.eval.length === plan.eval;
  if (!same) {
    throw new ExpectedError(
      'INVALID_INPUT',
      `${dir} holds another benchmark (seed ${seed}, ${variant} variant, ${registry.length} tools, ${byTask.size} families × ${sizes?.fit.length ?? 0} fit + ${sizes?.eval.length ?? 0} eval); choose a new output folder (--out), or run it again with the same options to resume it`,
    );
  }
  return store;
}

interface ProjectRunOptions extends Pick<DemoOptions, 'parallel' | 'signal' | 'log' | 'progress' | 'baselines'> {
  kMax: number | undefined;
  draws: number;
  started: number;
  stage: (event: Omit<DemoStageEvent, 'registry' | 'project' | 'projects'>) => void;
}

async function runDemoProject(store: ProjectStore, server: BenchServer, plan: BenchPlan, options: ProjectRunOptions): Promise<DemoProjectResult> {
  const started = performance.now();
  const { log } = options;
  const at = () => `[${elapsedSince(options.started)}]`;
  log(
    `1/5 ${store.dir}: ${plan.families.length} families × (${plan.fit} fit + ${plan.eval} eval), registry of ${plan.registry} tools, seed ${plan.seed}, ${plan.variant} variant`,
  );
  const { stage } = options;
  const served = await serveProject(store, server, {
    split: 'fit',
    menu: 'registry',
    batches: DEMO_FIT_BATCHES,
    signal: options.signal,
    onProgress: (d, t) => {
      options.progress?.('serve', d, t);
      stage({ stage: 'serve', done: d, total: t });
    },
  });
  stage({ stage: 'serve', done: served.traces.length, total: served.traces.length });
  const correct = served.traces.filter((t) => t.turns[0]?.correct).length;
  log(`2/5 served ${served.traces.length} fitting requests under the whole registry, in ${DEMO_FIT_BATCHES} batches (${correct} answered correctly) ${at()}`);
  const scored = await scoreBenchTraces(store, server.model, server.renderer, served.traces, {
    modelHash: server.modelHash,
    modelName: server.modelName,
    modelPath: server.loaded.path,
    parallel: options.parallel,
    threads: server.threads,
    signal: options.signal,
    onProgress: (d, t) => {
      options.progress?.('score', d, t);
      stage({ stage: 'score', done: d, total: t });
    },
  });
  stage({ stage: 'score', done: served.traces.length, total: served.traces.length, detail: `${scored.appended} new, ${scored.skipped} stored before` });
  log(`3/5 scored them with the re-execute intervention (${scored.appended} new, ${scored.skipped} stored before) ${at()}`);
  const bench = benchRequests(store);
  const { byTask } = bench;
  const scores = store.listScores(scored.run);
  const rows: ComparisonRow[] = [];
  const families = byTask.size;
  const baselines = options.baselines ?? ALL_BASELINES;
  // Kept across the families: Tool2Vec's tool vectors depend on the registry only.
  const memo = new Map<string, unknown>();
  const projectIndex = new ProjectIndex(store);
  const stageProgress = (name: 'sweep' | 'evaluate', task: string, index: number) => (p: SweepProgress) => {
    options.progress?.(`${name} ${task}`, p.done, p.total);
    stage({ stage: name, done: index, total: families, task, inner: { done: p.done, total: p.total, cached: p.cached } });
  };
  // Family by family through the use cases' own loops (`lots sweep`, `lots evaluate`), the update history
  // folded between them.
  for (const [index, task] of [...byTask.keys()].entries()) {
    const ranking = taskRanking(scores, task);
    if (ranking.length === 0) {
      log(`   ${task}: no tool was scored (empty answers?), skipped`);
      stage({ stage: 'sweep', done: index + 1, total: families, task, detail: `${task}: skipped (no tool was scored)` });
      stage({ stage: 'evaluate', done: index + 1, total: families, task, detail: `${task}: skipped (no tool was scored)` });
      continue;
    }
    const swept = await sweepBenchTasks(store, server, {
      bench,
      tasks: [task],
      run: scored.run,
      ...(options.kMax !== undefined ? { kMax: options.kMax } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onTask: (_task, budgets) => stage({ stage: 'sweep', done: index, total: families, task, inner: { done: 0, total: budgets } }),
      onProgress: (_task, p) => stageProgress('sweep', task, index)(p),
    });
    const sweep = resultOf(swept.tasks[0]);
    const top = sweep.points.length;
    stage({ stage: 'sweep', done: index + 1, total: families, task, detail: `${task}: K = ${sweep.bestK ?? '—'}` });
    log(`4/5 ${task}: budget sweep K=1…${top}, fitting accuracy ${sweep.points.map((p) => p.accuracy.toFixed(2)).join(' ')} → K=${sweep.bestK} ${at()}`);
    log(foldBatches(store, projectIndex, task, ranking, sweep.bestK, scored.run));
    const [evaluated] = await evaluateBenchTasks(store, server, {
      bench,
      tasks: [task],
      draws: options.draws,
      baselines,
      memo,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (_task, p) => stageProgress('evaluate', task, index)(p),
    });
    stage({ stage: 'evaluate', done: index + 1, total: families, task });
    const row = comparisonRow(resultOf(evaluated).sweep);
    if (row) rows.push(row);
  }
  log(`5/5 evaluated LOTS against ${baselines.map((b) => selectionMethod(b)!.label).join(', ')} ${at()}`);
  return { registry: plan.registry, seed: plan.seed, dir: store.dir, rows, seconds: (performance.now() - started) / 1000 };
}

/** A task's outcome of the use cases' loops; the demo skips a family without scored tools before. */
function resultOf<T>(outcome: TaskOutcome<T> | undefined): T {
  if (!outcome || 'skipped' in outcome) throw new Error(`the demo asked for a task the loop skipped: ${outcome ? outcome.skipped : 'no outcome'}`);
  return outcome.result;
}

/**
 * The task's update history from its fitting batches (the serve imports), folded by the update use case's
 * fold: top-K at the sweep's K, the default α, the demo's scoring run. Batches already in the history are
 * not folded again (a resumed demo adds none). Returns the log line.
 */
function foldBatches(store: ProjectStore, index: ProjectIndex, task: string, ranking: readonly Scored[], k: number | undefined, run: string): string {
  if (!k) return `   ${task}: no budget chosen, batches not folded`;
  const result = foldTaskUpdates(store, index, task, { rule: 'topk', k, alpha: DEFAULT_UPDATE_ALPHA, run });
  if (result.changed) store.writeUpdates(result.history);
  const n = result.history.batches.length;
  if (n === 0) return `   ${task}: no batch to fold (no scored fitting import)`;
  const plural = (m: number) => `${m} batch${m === 1 ? '' : 'es'}`;
  const fresh = result.folded.length;
  const what =
    fresh === n
      ? `folded ${plural(n)}${result.refoldReason ? ` again (${result.refoldReason})` : ''}`
      : fresh === 0
        ? `${plural(n)} folded before`
        : `folded ${fresh} new (${plural(n)} in its history)`;
  const top = ranking.slice(0, k).map((s) => s.tool);
  const against = sameSet(result.proposal, top) ? `the same tools as the sweep's top-${k}` : `the sweep's top-${k} is ${top.join(', ')}`;
  return `   ${task}: ${what} (α = ${result.alpha}, top-${k}), proposal ${result.proposal.join(', ') || '(none)'} — ${against}`;
}

/** Mean over families of each method's accuracy (fit and eval), prompt tokens and served tools. */
export function growthPoint(result: DemoProjectResult, project: string, families: readonly string[]): GrowthPoint {
  const methods: Record<string, MethodPoint> = {};
  for (const name of SELECTION_METHOD_IDS) {
    const evals = result.rows.map((r) => r.results.get(name)?.eval).filter((b) => b !== undefined);
    if (evals.length === 0) continue;
    const fits = result.rows.map((r) => r.results.get(name)?.fit).filter((b) => b !== undefined);
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    methods[name] = {
      accuracy: mean(evals.map((b) => b.accuracy)),
      ...(fits.length ? { fitAccuracy: mean(fits.map((b) => b.accuracy)) } : {}),
      n: evals.reduce((a, b) => a + b.n, 0),
      promptTokens: mean(evals.map((b) => b.promptTokens)),
      tools: mean(evals.map((b) => b.tools.length)),
    };
  }
  return { registry: result.registry, project, families: [...families], methods, seconds: result.seconds };
}

function elapsedSince(started: number): string {
  const s = (performance.now() - started) / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : formatMinSec(s);
}

/** A recorded command line without its --threads value: the same run on more or fewer cores. */
function withoutThreads(command: string): string {
  return command.replace(/ --threads[ =]\S+/g, '');
}
