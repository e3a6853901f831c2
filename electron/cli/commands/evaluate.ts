// `lots evaluate`: LOTS at each task's budget against the baselines of the selection-method registry.
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { flagInt, flagList, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, EXIT_PARTIAL, type Command } from '../command';
import { DEFAULT_RANDOM_DRAWS } from '../../../shared/benchmark/baselines';
import {
  ALL_BASELINES,
  BASELINE_NAMES,
  DEFAULT_BASELINES,
  expandBaselines,
  FIXED_K_BASELINES,
  selectionMethod,
  type BaselineName,
  BASELINE_GROUPS,
  DELETION_BASELINES,
} from '../../../shared/selection/registry';
import { costTable, formatCostTable } from '../../../shared/benchmark/cost-table';
import { METHOD_LABELS } from '../../../shared/export/demo-report';
import { decodeCaveat } from '../../../shared/project/run-record';
import { comparisonRow, formatComparisonTable, methodNotes, type ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { formatPairedTable, pairedTable } from '../../../shared/benchmark/paired-table';
import { deferredTable, formatDeferredTable } from '../../../shared/benchmark/deferred-table';
import { fixedKTable, formatFixedKTable } from '../../../shared/benchmark/fixed-k-table';
import { formatFixedKSeedTable, formatSeedTable } from '../../../shared/benchmark/seeds';
import { seedPointsOf } from '../../engine/benchmark/seeds';
import { benchRequests } from '../../engine/benchmark/project';
import { ProjectStore } from '../../engine/store';
import { embedderOption, embedFlags, modelFlags, openServer } from '../bench-flags';
import { progressReporter } from '../stage-progress';
import { evaluateBenchTasks, selectBenchTasks } from '../../engine/usecases/sweep';

export const command: Command = {
  name: 'evaluate',
  summary: "compare each task's LOTS space with the baselines on fitting and evaluation requests",
  usage:
    'lots evaluate --project <dir> [--model <gguf>] [--task t] [--baselines all|keep-all,router,…] [--embed auto|minilm|model|<gguf>] [--draws n] [--json]',
  flags: {
    project: { type: 'string', description: 'a benchmark project with budget sweeps (`lots sweep`)' },
    ...modelFlags(),
    ...embedFlags(),
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    baselines: {
      type: 'string',
      multi: true,
      description: `baselines to run, or all (default: ${DEFAULT_BASELINES.join(', ')}; all: ${ALL_BASELINES.join(', ')}; fixed-k: ${FIXED_K_BASELINES.join(', ')}, the paper's Table 9; deletion: ${DELETION_BASELINES.join(', ')}, the deletion ablation)`,
    },
    draws: { type: 'string', description: 'Random: number of seeded draws (mean ± std)', default: String(DEFAULT_RANDOM_DRAWS) },
    json: { type: 'boolean', description: 'print the stored results as JSON: {"tasks": {"<task>": SweepResult}}' },
  },
  details: [
    'LOTS serves each task under its top-K space at the budget of its sweep; the baselines use the same',
    'task and, where they take one, the same budget K. Each is served on the fitting and evaluation',
    'requests; results are stored with the sweep and the LOTS space is recorded as an accepted space version.',
    '',
    "Baselines (paper Table 1; † uses the fitting requests' gold answers):",
    ...BASELINE_NAMES.map((id) => `  ${id.padEnd(Math.max(...BASELINE_NAMES.map((n) => n.length)))}  ${selectionMethod(id)!.definition}`),
    '',
    `Those that ask the model (${BASELINE_NAMES.filter((id) => selectionMethod(id)!.needsModel).join(', ')}) and the reference rows`,
    `(${BASELINE_NAMES.filter((id) => selectionMethod(id)!.reference === true).join(', ')}) run only when named or with --baselines all (the fixed-K rankings: named or --baselines fixed-k; the deletion ablation: named or --baselines deletion):`,
    'tto and beam serve the fitting requests under every candidate menu they try,',
    'minutes per task on a CPU. A stored result is reused: evaluating again asks the model nothing new',
    '(Dense and Tool2Vec: under the same embedder; each prints which embedder chose, see --embed).',
    'Without --model, prints the stored results only. Under the table: LOTS against each baseline with',
    'paired intervals, and the cost of selection (prompt tokens read to choose, and when it pays back).',
    'On the folder of a `lots demo --seeds N` run: the spread across seeds too, recomputed from each seed',
    "project's stored results, and written into its demo.json where a seed was evaluated again since.",
    '',
    'Exit codes: 0 ok; 1 some tasks had no sweep and were skipped; 2 usage error or nothing to evaluate.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const bench = benchRequests(store);
    const tasks = selectBenchTasks([...bench.byTask.keys()], flagList(args, 'task'));
    const named = flagList(args, 'baselines');
    const baselines = expandBaselines(named);
    const unknown = baselines.filter((b) => !(BASELINE_NAMES as readonly string[]).includes(b));
    if (unknown.length) throw new UsageError(`unknown baseline ${unknown.join(', ')}; choose from ${BASELINE_GROUPS.join(', ')}, ${BASELINE_NAMES.join(', ')}`);
    const draws = flagInt(args, 'draws', { min: 1 });
    let skipped = 0;
    if (args.flags.model !== undefined) {
      const server = await openServer(args, await embedderOption(args, io, 'evaluate'));
      try {
        const progress = new Map<string, (done: number, total: number) => void>();
        const outcomes = await evaluateBenchTasks(store, server, {
          bench,
          tasks,
          ...(baselines.length > 0 ? { baselines: baselines as BaselineName[] } : {}),
          ...(draws !== undefined ? { draws } : {}),
          onTask: (task) => progress.set(task, progressReporter(io, `${task} evaluate`)),
          onProgress: (task, p) => progress.get(task)?.(p.done, p.total),
          onDone: (outcome) => {
            if ('skipped' in outcome) io.err(`${outcome.task}: ${outcome.skipped}; skipped`);
          },
        });
        skipped = outcomes.filter((o) => 'skipped' in o).length;
      } finally {
        await server.close();
      }
    }
    const sweeps = tasks.map((t) => store.readSweep(t)).filter((s) => s !== undefined);
    if (args.flags.json) {
      io.out(JSON.stringify({ tasks: Object.fromEntries(sweeps.map((s) => [s.task, s])) }));
    } else {
      const rows = sweeps.map(comparisonRow).filter((r): r is ComparisonRow => r !== undefined && r.results.size > 0);
      if (rows.length === 0) throw new CliError(`nothing evaluated yet in ${store.dir}; run \`lots evaluate --model <gguf>\` after \`lots sweep\``);
      io.out(formatComparisonTable(rows));
      const paired = formatPairedTable(pairedTable(rows));
      if (paired) io.out(`\n${paired}`);
      const cost = formatCostTable(costTable(rows), METHOD_LABELS);
      if (cost) io.out(`\n${cost}`);
      const deferred = deferredTable(rows);
      if (deferred) io.out(`\n${formatDeferredTable(deferred)}`);
      const fixedK = fixedKTable(rows);
      if (fixedK) io.out(`\n${formatFixedKTable(fixedK)}`);
      for (const note of methodNotes(rows, METHOD_LABELS)) io.out(note);
      const seeds = seedPointsOf(store, (p, dir) => io.err(`seed ${p.seed}: ${dir} is not there; its point as demo.json recorded it is shown`));
      if (seeds) io.out(`\n${formatSeedTable(seeds)}`);
      const fixedKSeeds = seeds ? formatFixedKSeedTable(seeds) : '';
      if (fixedKSeeds) io.out(`\n${fixedKSeeds}`);
      // The Demo view reads the seed points demo.json holds: a seed evaluated again since the demo ran
      // (a row added in its folder) is brought in here, so the Studio shows what was printed above.
      const record = store.readDemo();
      if (seeds && record && !isDeepStrictEqual(seeds, record.seeds)) {
        store.writeDemo({ ...record, seeds });
        io.out(`\n${join(store.dir, 'demo.json')}: its seed points were brought up to date with the seed projects (the Studio's Demo view shows these).`);
      }
      const caveat = record ? decodeCaveat({ ...record, ...(seeds ? { seeds } : {}) }) : undefined;
      if (caveat) io.out(`\nnote: ${caveat}`);
    }
    return skipped > 0 ? EXIT_PARTIAL : EXIT_OK;
  },
};
