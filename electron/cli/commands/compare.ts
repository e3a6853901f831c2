// `lots compare`: do two scoring runs (two models, two setups) rank a task's tools alike? (paper C.1)
import { flagInt, flagList, flagString, requireFlag, UsageError } from '../args';
import { EXIT_OK, type CliIO, type Command } from '../command';
import { tableLines } from '../table';
import { ProjectStore } from '../../engine/store';
import { ProjectIndex } from '../../engine/read-model/project-index';
import { compareRuns, listRunInfos, type TaskComparison } from '../../engine/usecases/compare';
import { pooledAgreement } from '../../../shared/lots/compare';

export const command: Command = {
  name: 'compare',
  summary: "compare two scoring runs' rankings of the same tasks: Kendall τ, top-K overlap, the tools that moved most",
  usage: 'lots compare --project <dir> [--runs A,B] [--task T] [--k N] [--json]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    runs: { type: 'string', multi: true, description: "the two runs to compare (default: the project's two runs when it has exactly two)" },
    task: { type: 'string', description: 'only this task (default: every task both runs scored)' },
    k: { type: 'string', description: "K of the top-K overlap (default: the task's approved size, else its budget, else 5)" },
    json: { type: 'boolean', description: 'print the comparison as one JSON object' },
  },
  details: [
    "Each run ranks a task's tools by their mean score over the requests it scored. τ is Kendall's τ-b",
    'over the tools both runs scored (1: the same order, 0: unrelated, −1: reversed); the top-K overlap is',
    "the share of one run's K best tools among the other's. A space fitted with one model's traces can",
    "serve another model (paper C.1): a high τ says the rankings carry over. Without --runs, the project's",
    "runs are listed (and compared when there are exactly two). Over several tasks, the two runs' mean",
    'scores are also correlated pooled over every (task, tool) pair, as the paper compares its two deletion',
    "operations (E.3); run it with --k 2 and --k 4 for Table 18's set agreement.",
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    let runs = flagList(args, 'runs');
    if (runs.length === 0) {
      const infos = listRunInfos(store);
      if (infos.length !== 2) {
        io.out(
          infos.length === 0
            ? 'this project has no scoring runs yet: score its traces first (lots score)'
            : `this project has ${infos.length} scoring runs; pick two with --runs A,B:`,
        );
        for (const r of infos) io.out(`  ${r.run}  ${r.model ?? '(imported)'}  ${r.rows} rows, tasks: ${r.tasks.join(', ')}`);
        return infos.length < 2 ? 2 : EXIT_OK;
      }
      runs = infos.map((r) => r.run);
    }
    if (runs.length !== 2) throw new UsageError(`--runs takes two runs separated by a comma, got ${runs.length}`);
    const result = compareRuns(store, new ProjectIndex(store), {
      runA: runs[0]!,
      runB: runs[1]!,
      task: flagString(args, 'task'),
      k: flagInt(args, 'k', { min: 1 }),
    });
    if (args.flags.json)
      io.data!(JSON.stringify({ runA: runs[0], runB: runs[1], tasks: Object.fromEntries(result.map(({ task, ...c }) => [task, c])) }, null, 2));
    else print(runs[0]!, runs[1]!, result, io);
    return EXIT_OK;
  },
};

function print(a: string, b: string, result: TaskComparison[], io: CliIO): void {
  io.out(`A = ${a}\nB = ${b}`);
  const rows = result.map((r) => [
    r.task,
    String(r.common),
    r.tau === null ? '—' : r.tau.toFixed(3),
    `${Math.round(r.topKOverlap * r.k)}/${r.k}`,
    r.moved
      .slice(0, 3)
      .map((m) => `${m.tool} ${m.rankA}→${m.rankB}`)
      .join(', ') || 'none',
  ]);
  const columns = [
    { header: 'task' },
    { header: 'common', align: 'right' },
    { header: 'Kendall τ', align: 'right' },
    { header: 'top-K overlap', align: 'right' },
    { header: 'moved most' },
  ] as const;
  for (const line of tableLines(columns, rows, { indent: '  ' })) io.out(line);
  const taus = result.map((r) => r.tau).filter((t): t is number => t !== null);
  if (taus.length > 1) io.out(`  mean τ over ${taus.length} tasks: ${(taus.reduce((x, y) => x + y, 0) / taus.length).toFixed(3)}`);
  {
    const p = pooledAgreement(result);
    const r = (x: number | null) => (x === null ? '—' : x.toFixed(3));
    const ks = [...new Set(result.map((c) => c.k))];
    const k = ks.length === 1 ? `top-${ks[0]}` : 'top-K';
    io.out(
      `  pooled over ${p.pairs} (task, tool) scores: Pearson r ${r(p.pearson)}, Spearman ρ ${r(p.spearman)}; the ${k} sets are the same in ${p.sameTopK} of ${p.tasks} tasks`,
    );
  }
  for (const r of result) {
    if (r.onlyA.length || r.onlyB.length) io.out(`  ${r.task}: scored only by A: ${r.onlyA.join(', ') || '—'}; only by B: ${r.onlyB.join(', ') || '—'}`);
  }
}
