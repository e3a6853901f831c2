// `lots demo`: the whole loop on the built-in benchmark, on the default real model (pulled if missing),
// with progress, the comparison table and, with several registry sizes, accuracy against registry size.
import { availableParallelism } from 'node:os';
import { flagInt, flagList, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, type Command } from '../command';
import { alignColumns, formatComparisonTable, methodNotes } from '../../../shared/benchmark/comparison-table';
import { formatPairedTable, pairedTable } from '../../../shared/benchmark/paired-table';
import { deferredTable, formatDeferredTable } from '../../../shared/benchmark/deferred-table';
import { fixedKTable, formatFixedKTable } from '../../../shared/benchmark/fixed-k-table';
import { MAX_REGISTRY } from '../../../shared/benchmark/registry';
import type { GrowthPoint } from '../../../shared/project/demo';
import { DEMO_PRESET_NAMES, DEMO_PRESETS, runDemo, type DemoPresetName } from '../../engine/benchmark/demo';
import {
  ALL_BASELINES,
  BASELINE_NAMES,
  expandBaselines,
  FIXED_K_BASELINES,
  isBaselineName,
  type BaselineName,
  BASELINE_GROUPS,
  DELETION_BASELINES,
} from '../../../shared/selection/registry';
import { costTable, formatCostTable } from '../../../shared/benchmark/cost-table';
import { formatFixedKSeedTable, formatSeedTable } from '../../../shared/benchmark/seeds';
import { METHOD_LABELS } from '../../../shared/export/demo-report';
import { decodeCaveat } from '../../../shared/project/run-record';
import { FIXTURE_MODELS } from '../../engine/models/model-arg';

import { DEFAULT_MODEL_SOURCE } from '../../engine/models/sources';
import { commandLine, ensureModel } from '../real-model';
import { BENCH_VARIANTS } from '../../../shared/benchmark/variant';
import { benchOptions, embedderOption, embedFlags, modelFlags, serverOptions, variantFlag } from '../bench-flags';
import { stageReporter } from '../stage-progress';
import { ExpectedError } from '../../../shared/api/errors';
import { formatFixed, formatMinSec } from '../../../shared/text';

const quick = DEMO_PRESETS.quick;
const standard = DEMO_PRESETS.standard;
const full = DEMO_PRESETS.full;

export const command: Command = {
  name: 'demo',
  summary: 'run the whole LOTS loop on the built-in benchmark with a real model and print LOTS against the baselines',
  usage: `lots demo --out <dir> [--model default] [--preset quick|standard|full] [--families a,b] [--registry 15[,30,60]] [--baselines all|a,b] [--fit n] [--eval n] [--variant ${BENCH_VARIANTS.join('|')}] [--seeds n]`,
  flags: {
    ...modelFlags(),
    ...embedFlags(),
    model: {
      type: 'string',
      description: `GGUF file, a pulled source, or default (${DEFAULT_MODEL_SOURCE}, pulled if missing); ${FIXTURE_MODELS.join(' / ')} for the generated test models`,
      default: 'default',
    },
    out: { type: 'string', description: 'the project folder (new, or a demo folder made with the same options: it resumes)' },
    families: { type: 'string', multi: true, description: 'only these families (default: all ten)' },
    registry: { type: 'string', description: 'registry size, or several (15,30,60) for accuracy against registry size', default: '15' },
    seed: { type: 'string', description: 'benchmark seed', default: '0' },
    ...variantFlag(),
    seeds: {
      type: 'string',
      description: 'seeds of the benchmark draw: --seed, then the next ones, each in --out/seeds/seed-S; prints mean and spread across seeds',
      default: '1',
    },
    fit: { type: 'string', description: `fitting requests per family (default: the preset's, ${quick.fit} for quick)` },
    eval: { type: 'string', description: `evaluation requests per family (default: the preset's, ${quick.eval} for quick)` },
    draws: { type: 'string', description: `Random baseline draws (default: the preset's, ${quick.draws} for quick)` },
    'k-max': { type: 'string', description: `largest budget K of the sweep (default ${quick.kMax}; every K with --preset full)` },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core; the demo is a batch job)' },
    preset: {
      type: 'string',
      description: `quick (${quick.fit} fit / ${quick.eval} eval per family), standard (${standard.fit} / ${standard.eval}: about 2½ hours on a 2-core CPU) or full (${full.fit} / ${full.eval}, K = 1…|A_t|: days on a CPU)`,
      default: 'quick',
    },
    full: { type: 'boolean', description: 'the same as --preset full' },
    baselines: {
      type: 'string',
      multi: true,
      description: `the baselines LOTS is compared with (default all: ${ALL_BASELINES.join(', ')}; fixed-k: ${FIXED_K_BASELINES.join(', ')}, the paper's Table 9; deletion: ${DELETION_BASELINES.join(', ')}, the deletion ablation)`,
    },
  },
  details: [
    `Preset (default): all ten families × (${quick.fit} fit + ${quick.eval} eval) requests, registry of 15 tools,`,
    `budgets K = 1…${quick.kMax}, ${quick.draws} Random draws: about 27 minutes with the default model on a 2-core AMD EPYC`,
    '(measured: 27 min 28 s wall, 52 CPU-minutes, nothing else running; most of it is scoring) with the four',
    'baselines that call no model; the model-asking ones add their selection (the README gives the measured time).',
    `--preset standard: ${standard.fit} fit + ${standard.eval} eval per family, ${standard.draws} Random draws, K = 1…${standard.kMax}, for`,
    'paired intervals over 400 evaluation requests: about 2½ hours on a 2-core Intel Xeon with the four baselines',
    'that call no model (estimated from a run measured in two sittings: sweeps and evaluations 9½ minutes a family, scoring the 80',
    'fitting traces most of the rest; the README has the numbers); it resumes when stopped.',
    '',
    'Steps: make the project → serve the fitting requests under the whole registry, in two imports (each',
    "family's first half, then the rest) → score them with the re-execute intervention → rank each task's",
    "tools → sweep the budget K on the fitting requests → fold the two imports as the task's update batches",
    '(top-K at that K, α = 0.2: the History view, as `lots update` would) →',
    'evaluate the LOTS space at K against the baselines (paper Table 1: keep-all, no-tools, random, BM25,',
    'Dense, Tool2Vec, the LLM router, the trace judge, TTO† and Beam†; † reads fitting labels) on fitting and',
    'evaluation requests. Everything is stored in the project as it completes (served traces, scores, sweeps, updates, spaces,',
    'demo.json with the model, command and machine), so the same command on the same folder resumes. Ctrl-C',
    'stops after the work in flight (a trace being scored, a batch being answered); Ctrl-C again stops at once.',
    '',
    '--variant composition serves requests no tool line answers: the chain returns an intermediate and the',
    'request asks for one more step (docs/benchmark.md); number-free and answer-last are controls of the',
    'faithful default. --seeds 3 runs the benchmark under seeds S, S+1, S+2 (each its own project, the first',
    'in --out, the others in --out/seeds/seed-S: scenes, requests and Random draws all change) and prints',
    "each method's accuracy and LOTS's paired difference as mean ± sd across seeds beside each seed's interval.",
    '',
    '--registry 15,30,60 runs the same families at each size (the first in --out, the others in',
    '--out/growth/registry-N) and prints keep-all and LOTS accuracy and prompt tokens against the size',
    '(paper Figure 1(c)). Scoring grows with the square of the registry: at 60 tools a fitting request',
    'takes several minutes to score on a CPU, so pick a few families and --fit 1 there.',
    '',
    'Table: accuracy cells are "fitting/evaluation"; Random shows ± its std over draws; the last column',
    'is the mean prompt tokens per request under LOTS and under the whole registry.',
    'Exit codes: 0 ok; 2 usage error, a folder that holds something else, or a model that cannot be loaded.',
  ].join('\n'),
  async run(args, io) {
    const out = requireFlag(args, 'out');
    const bench = benchOptions({ ...args, flags: { ...args.flags, registry: undefined } });
    const preset = presetFlag(args);
    if (preset !== 'quick' && (flagString(args, 'fit') || flagString(args, 'eval')))
      throw new UsageError(`--preset ${preset} sets --fit ${DEMO_PRESETS[preset].fit} --eval ${DEMO_PRESETS[preset].eval}; give one or the other`);
    const named = flagList(args, 'baselines');
    const baselines = expandBaselines(named.length === 0 ? ['all'] : named);
    const unknown = baselines.filter((b) => !isBaselineName(b));
    if (unknown.length) throw new UsageError(`unknown baseline ${unknown.join(', ')}; choose from ${BASELINE_GROUPS.join(', ')}, ${BASELINE_NAMES.join(', ')}`);
    const registries = registryList(args);
    const modelPath = await ensureModel(flagString(args, 'model') ?? 'default', io, 'demo');
    const progress = stageReporter(io);
    const abort = new AbortController();
    // The first Ctrl-C stops after the work in flight (what is stored stays, and the same command resumes);
    // the second stops at once.
    const onSigint = (): void => {
      if (abort.signal.aborted) process.exit(130);
      progress.flush();
      io.err('stopping after the work in flight (Ctrl-C again to stop now)…');
      abort.abort(new ExpectedError('CANCELLED', 'the demo was interrupted; run the same command again to resume it'));
    };
    process.on('SIGINT', onSigint);
    try {
      const result = await runDemo({
        ...bench,
        ...serverOptions(args),
        ...(await embedderOption(args, io, 'demo')),
        threads: flagInt(args, 'threads', { min: 1 }) ?? allCores(),
        preset,
        baselines: baselines as BaselineName[],
        registries,
        seeds: flagInt(args, 'seeds', { min: 1 }),
        draws: flagInt(args, 'draws', { min: 1 }),
        kMax: flagInt(args, 'k-max', { min: 1 }),
        modelPath,
        out,
        command: commandLine('demo', args),
        signal: abort.signal,
        log: (line) => {
          progress.flush();
          io.out(line);
        },
        progress: progress.update,
      });
      progress.flush();
      const seeded = (result.record.seeds?.length ?? 0) > 0;
      for (const project of result.projects) {
        io.out('');
        if (result.projects.length > 1) io.out(`${seeded ? `seed ${project.seed}` : `registry of ${project.registry} tools`} (${project.dir}):`);
        io.out(formatComparisonTable(project.rows));
        const paired = formatPairedTable(pairedTable(project.rows));
        if (paired) io.out(`\n${paired}`);
        const cost = formatCostTable(costTable(project.rows), METHOD_LABELS);
        if (cost) io.out(`\n${cost}`);
        const deferred = deferredTable(project.rows);
        if (deferred) io.out(`\n${formatDeferredTable(deferred)}`);
        const fixedK = fixedKTable(project.rows);
        if (fixedK) io.out(`\n${formatFixedKTable(fixedK)}`);
        for (const note of methodNotes(project.rows, METHOD_LABELS)) io.out(note);
      }
      if (seeded) {
        io.out('');
        io.out(formatSeedTable(result.record.seeds!));
        const fixedK = formatFixedKSeedTable(result.record.seeds!);
        if (fixedK) io.out(`\n${fixedK}`);
      }
      if (result.record.growth.length > 1) {
        io.out('');
        io.out(formatGrowthTable(result.record.growth));
      }
      const caveat = decodeCaveat(result.record);
      if (caveat) io.out(`\nnote: ${caveat}`);
      io.out('');
      io.out(`done in ${formatMinSec(result.seconds)}; the project is in ${result.dir} (open it in the Studio: npm run web, then Open project)`);
      return EXIT_OK;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};

function presetFlag(args: ParsedArgs): DemoPresetName {
  const name = flagString(args, 'preset') ?? 'quick';
  if (!(DEMO_PRESET_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown preset ${name}; choose from ${DEMO_PRESET_NAMES.join(', ')}`);
  if (args.flags.full && name !== 'quick' && name !== 'full') throw new UsageError(`--full is --preset full; give one preset`);
  return args.flags.full ? 'full' : (name as DemoPresetName);
}

function registryList(args: ParsedArgs): number[] {
  const raw = flagList(args, 'registry')
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const sizes = (raw.length ? raw : ['15']).map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 15 || n > MAX_REGISTRY)
      throw new UsageError(`--registry takes sizes between 15 and ${MAX_REGISTRY} (e.g. 15,30,60), got "${s}"`);
    return n;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function allCores(): number {
  return availableParallelism();
}

export function formatGrowthTable(points: readonly GrowthPoint[]): string {
  const header = ['registry', 'keep-all acc', 'LOTS acc', 'keep-all tok', 'LOTS tok', 'LOTS K', 'n', 'families'];
  const rows = points.map((p) => {
    const all = p.methods['keep-all'];
    const lots = p.methods.lots;
    const f = (x: number | undefined) => (x === undefined ? '–' : formatFixed(x));
    return [
      String(p.registry),
      f(all?.accuracy),
      f(lots?.accuracy),
      all ? String(Math.round(all.promptTokens)) : '–',
      lots ? String(Math.round(lots.promptTokens)) : '–',
      lots ? lots.tools.toFixed(1) : '–',
      String(lots?.n ?? all?.n ?? 0),
      String(p.families.length),
    ];
  });
  return [
    'accuracy (evaluation requests, mean over families) and prompt tokens against registry size:',
    ...alignColumns([header, ...rows], { rule: true }),
  ].join('\n');
}
