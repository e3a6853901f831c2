// `lots bench make`: write a ready benchmark project (the built-in TGB-style benchmark).
import { flagString, UsageError } from '../args';
import { EXIT_OK, type Command } from '../command';
import { FAMILIES } from '../../../shared/benchmark/families/index';
import { FAMILY_NAMES } from '../../../shared/benchmark/family';
import { DEFAULT_EVAL, DEFAULT_FIT, DEFAULT_REGISTRY, DEFAULT_SEED } from '../../../shared/benchmark/generate';
import { MAX_REGISTRY, REGISTRY_SIZES } from '../../../shared/benchmark/registry';
import { makeBenchProject } from '../../engine/benchmark/make';
import { BENCH_VARIANTS } from '../../../shared/benchmark/variant';
import { benchOptions, variantFlag } from '../bench-flags';

export const command: Command = {
  name: 'bench make',
  summary: 'generate the built-in benchmark as a ready project (requests, gold answers, tasks, splits)',
  usage: `lots bench make --out <dir> [--families a,b] [--registry 15|30|60|120|240] [--seed s] [--fit n] [--eval n] [--answers empty|gold] [--variant ${BENCH_VARIANTS.join('|')}]`,
  flags: {
    out: { type: 'string', description: 'the project folder to create (must not exist or be empty)' },
    families: { type: 'string', multi: true, description: `only these families (default: all ten)` },
    registry: {
      type: 'string',
      description: `registry size: ${REGISTRY_SIZES.join(', ')} (any size 15…${MAX_REGISTRY} works)`,
      default: String(DEFAULT_REGISTRY),
    },
    seed: { type: 'string', description: 'seed of everything random; the same seed gives the same benchmark', default: DEFAULT_SEED },
    ...variantFlag(),
    fit: { type: 'string', description: 'fitting requests per family', default: String(DEFAULT_FIT) },
    eval: { type: 'string', description: 'evaluation requests per family', default: String(DEFAULT_EVAL) },
    answers: {
      type: 'string',
      description: 'empty (to be served with `lots serve`) or gold (an oracle agent, to test scoring without serving)',
      default: 'empty',
    },
  },
  details: [
    'Families (paper Table 4):',
    ...FAMILY_NAMES.map((f) => `  ${f.padEnd(15)} ${FAMILIES[f].chainText.padEnd(40)} ${FAMILIES[f].computation}`),
    '',
    'Each request has a hidden scene (table, sensor series, calendar, documents, exchange rates, a cipher)',
    'that only the tools can see. Every request is executed under the whole registry in the single-step',
    'protocol: one line per served tool, "<Tool>: <output>". Its trace carries the task (family), the',
    'split (fit/eval), the gold answer, and what rebuilds it (meta.bench), so `--intervention reexecute`',
    'can re-run the chain without a tool.',
    '',
    'Next: lots serve --project <dir> --model <gguf>, then score, sweep and evaluate; or `lots demo`.',
    '',
    'Exit codes: 0 ok; 2 usage error or the folder is not empty.',
  ].join('\n'),
  async run(args, io) {
    const out = flagString(args, 'out');
    if (!out) throw new UsageError('--out is required');
    const made = makeBenchProject(out, benchOptions(args));
    io.out(
      `wrote ${made.store.dir}: ${made.traces} requests (${made.plan.families.length} families × ${made.plan.fit} fit + ${made.plan.eval} eval), registry of ${made.plan.registry} tools, seed ${made.plan.seed}, ${made.plan.variant} variant`,
    );
    return EXIT_OK;
  },
};
