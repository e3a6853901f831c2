// `lots demo`: the whole loop on the built-in benchmark, on the default real model (pulled if missing),
// with progress, the comparison table and, with several registry sizes, accuracy against registry size.
import { availableParallelism } from 'node:os';
import { flagInt, flagList, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { EXIT_OK, type Command } from '../command';
import { alignColumns, formatComparisonTable } from '../../../shared/benchmark/comparison-table';
import { formatPairedTable, pairedTable } from '../../../shared/benchmark/paired-table';
import { MAX_REGISTRY } from '../../../shared/benchmark/registry';
import type { GrowthPoint } from '../../../shared/project/demo';
import { DEMO_PRESETS, runDemo } from '../../engine/benchmark/demo';
import { FIXTURE_MODELS } from '../../engine/models/model-arg';

import { DEFAULT_MODEL_SOURCE } from '../../engine/models/sources';
import { commandLine, ensureModel } from '../real-model';
import { benchOptions, modelFlags, serverOptions } from '../bench-flags';
import { stageReporter } from '../stage-progress';
import { ExpectedError } from '../../../shared/api/errors';

const quick = DEMO_PRESETS.quick;
const full = DEMO_PRESETS.full;

export const command: Command = {
  name: 'demo',
  summary: 'run the whole LOTS loop on the built-in benchmark with a real model and print LOTS against the baselines',
  usage: 'lots demo --out <dir> [--model default] [--families a,b] [--registry 15[,30,60]] [--full] [--fit n] [--eval n]',
  flags: {
    ...modelFlags(),
    model: {
      type: 'string',
      description: `GGUF file, a pulled source, or default (${DEFAULT_MODEL_SOURCE}, pulled if missing); ${FIXTURE_MODELS.join(' / ')} for the generated test models`,
      default: 'default',
    },
    out: { type: 'string', description: 'the project folder (new, or a demo folder made with the same options: it resumes)' },
    families: { type: 'string', multi: true, description: 'only these families (default: all ten)' },
    registry: { type: 'string', description: 'registry size, or several (15,30,60) for accuracy against registry size', default: '15' },
    seed: { type: 'string', description: 'benchmark seed', default: '0' },
    fit: { type: 'string', description: `fitting requests per family (default ${quick.fit}; ${full.fit} with --full)` },
    eval: { type: 'string', description: `evaluation requests per family (default ${quick.eval}; ${full.eval} with --full)` },
    draws: { type: 'string', description: `Random baseline draws (default ${quick.draws}; ${full.draws} with --full)` },
    'k-max': { type: 'string', description: `largest budget K of the sweep (default ${quick.kMax}; every K with --full)` },
    threads: { type: 'string', description: 'CPU threads for the model (default: every core; the demo is a batch job)' },
    full: { type: 'boolean', description: `the paper's split sizes (${full.fit} fit / ${full.eval} eval per family, K = 1…|A_t|): hours on a CPU` },
  },
  details: [
    `Preset (default): all ten families × (${quick.fit} fit + ${quick.eval} eval) requests, registry of 15 tools,`,
    `budgets K = 1…${quick.kMax}, ${quick.draws} Random draws: about 27 minutes with the default model on a 2-core AMD EPYC`,
    '(measured: 27 min 28 s wall, 52 CPU-minutes, nothing else running; most of it is scoring).',
    '',
    'Steps: make the project → serve the fitting requests under the whole registry → score them with the',
    "re-execute intervention → rank each task's tools → sweep the budget K on the fitting requests →",
    'evaluate the LOTS space at K against keep-all, no-tools, random and BM25 on fitting and evaluation',
    'requests. Everything is stored in the project as it completes (served traces, scores, sweeps, spaces,',
    'demo.json with the model, command and machine), so the same command on the same folder resumes.',
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
    const isFull = Boolean(args.flags.full);
    if (isFull && (flagString(args, 'fit') || flagString(args, 'eval')))
      throw new UsageError(`--full sets --fit ${full.fit} --eval ${full.eval}; give one or the other`);
    const registries = registryList(args);
    const modelPath = await ensureModel(flagString(args, 'model') ?? 'default', io, 'demo');
    const progress = stageReporter(io);
    const abort = new AbortController();
    const onSigint = () => abort.abort(new ExpectedError('CANCELLED', 'the demo was interrupted; run the same command again to resume it'));
    process.once('SIGINT', onSigint);
    try {
      const result = await runDemo({
        ...bench,
        ...serverOptions(args),
        threads: flagInt(args, 'threads', { min: 1 }) ?? allCores(),
        preset: isFull ? 'full' : 'quick',
        registries,
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
      for (const project of result.projects) {
        io.out('');
        if (result.projects.length > 1) io.out(`registry of ${project.registry} tools (${project.dir}):`);
        io.out(formatComparisonTable(project.rows));
        const paired = formatPairedTable(pairedTable(project.rows));
        if (paired) io.out(`\n${paired}`);
      }
      if (result.record.growth.length > 1) {
        io.out('');
        io.out(formatGrowthTable(result.record.growth));
      }
      io.out('');
      io.out(`done in ${formatMinutes(result.seconds)}; the project is in ${result.dir} (open it in the Studio: npm run web, then Open project)`);
      return EXIT_OK;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};

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
    const f = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(2));
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

function formatMinutes(seconds: number): string {
  return seconds < 120 ? `${seconds.toFixed(0)} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
