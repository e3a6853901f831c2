// `lots demo`: the whole loop on the built-in benchmark, with progress and the comparison table.
import { flagInt, flagString, UsageError } from '../args';
import { EXIT_OK, type Command } from '../command';
import { registerCommands } from '../registry';
import { formatComparisonTable } from '../../../shared/bench/report';
import { DEMO_DEFAULTS, runDemo } from '../../engine/bench/demo';
import { benchOptions, stageReporter } from './bench-make';
import { modelFlags, requireFlag, serverOptions } from './serve';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run the whole LOTS loop on the built-in benchmark and print LOTS against the baselines',
  usage: 'lots demo --model <gguf> --out <dir> [--families a,b] [--registry 15] [--seed s] [--fit n] [--eval n] [--full]',
  flags: {
    ...modelFlags(),
    out: { type: 'string', description: 'the project folder to create (must not exist or be empty)' },
    families: { type: 'string', multi: true, description: 'only these families (default: all ten)' },
    registry: { type: 'string', description: 'registry size (15, 30, 60, 120, 240)', default: '15' },
    seed: { type: 'string', description: 'benchmark seed', default: '0' },
    fit: { type: 'string', description: `fitting requests per family (default ${DEMO_DEFAULTS.fit}; ${80} with --full)` },
    eval: { type: 'string', description: `evaluation requests per family (default ${DEMO_DEFAULTS.eval}; ${320} with --full)` },
    draws: { type: 'string', description: 'Random baseline draws', default: String(DEMO_DEFAULTS.draws) },
    full: { type: 'boolean', description: 'the paper\'s split sizes (80 fit / 320 eval per family): hours on a CPU' },
  },
  details: [
    'Steps: make the project → serve the fitting requests under the whole registry → score them with the',
    're-execute intervention → rank each task\'s tools → sweep the budget K on the fitting requests →',
    'evaluate the LOTS space at K against keep-all, no-tools, random and BM25 on fitting and evaluation',
    'requests. Everything is stored in the project (served traces, scores, sweeps, spaces).',
    '',
    'Table: accuracy cells are "fitting/evaluation"; Random shows ± its std over draws; the last column',
    'is the mean prompt tokens per request under LOTS and under the whole registry.',
    '',
    'Try it without a model download: --model fixture:random (random weights: the loop runs, the answers',
    'mean nothing) or --model fixture:evidence-copy.',
    'Exit codes: 0 ok; 2 usage error, a folder that is not empty, or a model that cannot be loaded.',
  ].join('\n'),
  async run(args, io) {
    const out = requireFlag(args, 'out');
    requireFlag(args, 'model');
    const bench = benchOptions(args);
    const full = Boolean(args.flags.full);
    if (full && (flagString(args, 'fit') || flagString(args, 'eval'))) throw new UsageError('--full sets --fit 80 --eval 320; give one or the other');
    const progress = stageReporter(io);
    const result = await runDemo({
      ...bench,
      ...serverOptions(args),
      fit: full ? 80 : bench.fit,
      eval: full ? 320 : bench.eval,
      draws: flagInt(args, 'draws', { min: 1 }),
      model: requireFlag(args, 'model'),
      out,
      log: (line) => {
        progress.flush();
        io.out(line);
      },
      progress: progress.update,
    });
    progress.flush();
    io.out('');
    io.out(formatComparisonTable(result.rows));
    io.out('');
    io.out(`done in ${result.seconds.toFixed(0)} s; the project is in ${result.dir} (open it in the Studio, or \`lots evaluate --project ${result.dir}\`)`);
    return EXIT_OK;
  },
};

registerCommands([demoCommand]);
