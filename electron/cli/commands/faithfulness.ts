// `lots faithfulness`: the faithfulness check of each task's ranking. For every scored request, the
// ranking's top-K tools are removed together and the drop of the frozen answer's likelihood is set
// against what the single-tool scores add up to and against K random tools. Runs as a job in a worker
// (progress, Ctrl-C), stores the result in the project (faithfulness/) and prints a table per task.
import { resolve } from 'node:path';
import { choice, flagInt, flagList, flagString, requireFlag, UsageError } from '../args';
import { CliError, EXIT_OK, EXIT_PARTIAL, type CliIO, type Command } from '../command';
import { followScoreJob } from '../job-progress';
import { tableLines } from '../table';
import { ProjectStore } from '../../engine/store';
import { checkModelPath, GPU_CHOICES, modelFileHash, readModelHeader } from '../../engine/llama';
import { newJobId } from '../../engine/jobs/ids';
import { DEFAULT_FAITHFULNESS_DRAWS, DEFAULT_FAITHFULNESS_SEED } from '../../engine/jobs/faithfulness-job';
import type { FaithfulnessJobSpec } from '../../engine/jobs/protocol';
import { UNROUTED } from '../../../shared/lots/aggregate';
import { faithfulnessVerdict } from '../../../shared/lots/faithfulness';
import { fitTask } from '../../../shared/lots/fit';
import type { FaithfulnessCheck } from '../../../shared/project/faithfulness';
import { parseRunKey } from '../../../shared/project/scores';
import { resolveModelArg } from '../../engine/models/model-arg';

const DEFAULT_KS = [1, 2, 3];

export const command: Command = {
  name: 'faithfulness',
  summary: "check each task's ranking: the likelihood drop when its top-K tools are removed together, against K random tools",
  usage: 'lots faithfulness --project <dir> --model <file.gguf> [--task t] [--k N] [--draws n] [--run <run>] [--gpu auto|cuda|vulkan|metal|cpu] [--json]',
  flags: {
    project: { type: 'string', description: 'the project folder (scored with `lots score`)' },
    model: { type: 'string', description: 'the GGUF model file the scores were computed with' },
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    k: { type: 'string', multi: true, description: "budgets to check (default: 1, 2, 3 and the task's swept K, up to its ranked tools)" },
    draws: { type: 'string', description: 'random K-subsets per request', default: String(DEFAULT_FAITHFULNESS_DRAWS) },
    seed: { type: 'string', description: 'seed of the random draws', default: String(DEFAULT_FAITHFULNESS_SEED) },
    run: { type: 'string', description: 'the scoring run to check (default: the latest run of this model for each task)' },
    gpu: { type: 'string', description: 'llama.cpp backend', default: 'auto' },
    json: { type: 'boolean', description: 'print the stored checks as one JSON object: {"tasks": {"<task>": <check>}}' },
  },
  details: [
    'For each scored request x of a task and each budget K: remove the evidence of the K best-ranked of',
    "its scoreable tools together (the run's intervention: evidence, line, or re-execution without all K)",
    'and measure  joint = L(y|h) - L(y|h^-TopK)  on the same frozen answer tokens. Set against',
    '  additive = sum of I_x(s) over those K tools   (what the single-tool scores predict), and',
    '  random   = the joint drop of K scoreable tools drawn at random (mean over --draws seeded draws).',
    'A faithful ranking removes much more likelihood than random tools do ("beats random": the share of',
    'requests where it does). Requests with fewer than K scoreable tools are left out of that K (n).',
    '',
    'The model must be the file the run was scored with (its hash is part of the run). Results are kept',
    "in <project>/faithfulness/ and shown on the Studio's Ranking view.",
    'Exit codes: 0 done; 1 cancelled or some tasks had no scores from this model; 2 failure or usage error.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const model = resolve(resolveModelArg(requireFlag(args, 'model')));
    checkModelPath(model);
    await readModelHeader(model);
    const gpu = choice(args, 'gpu', GPU_CHOICES);
    const draws = flagInt(args, 'draws', { min: 1 })!;
    const seed = flagInt(args, 'seed')!;
    const ks = flagList(args, 'k').map((v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--k takes positive integers, got "${v}"`);
      return n;
    });

    const tasks = selectTasks(store, flagList(args, 'task'));
    const plans = await planChecks(store, tasks, model, flagString(args, 'run'), io);
    if (plans.size === 0)
      throw new CliError(`no task has scores from ${model}; score the project with it first (\`lots score --project ${store.dir} --model ${model}\`)`);

    let cancelled = false;
    const checked: Array<{ task: string; run: string }> = [];
    for (const [run, taskList] of plans) {
      const budgets = ks.length > 0 ? ks : defaultBudgets(store, run, taskList);
      io.out(`checking ${taskList.join(', ')} (run ${run}) at K = ${budgets.join(', ')} with ${draws} random draws per request`);
      const spec: FaithfulnessJobSpec = { jobId: newJobId('faithfulness'), project: store.dir, model, gpu, tasks: taskList, run, ks: budgets, draws, seed };
      const outcome = (await followScoreJob({ kind: 'faithfulness', spec }, io, 'requests', 'the faithfulness check failed')).status;
      if (outcome === 'cancelled') {
        cancelled = true;
        break;
      }
      for (const task of taskList) checked.push({ task, run });
    }

    const fresh = ProjectStore.open(store.dir);
    const results = checked.map(({ task, run }) => ({ task, check: fresh.readFaithfulness(task).checks.find((c) => c.run === run) }));
    if (args.flags.json) io.out(JSON.stringify({ tasks: Object.fromEntries(results.map((r) => [r.task, r.check ?? null])) }));
    else for (const r of results) if (r.check) printCheck(io, r.task, r.check);
    if (cancelled) {
      io.err('cancelled: the check of the tasks in flight was not stored; run the same command again.');
      return EXIT_PARTIAL;
    }
    return checked.length < tasks.length ? EXIT_PARTIAL : EXIT_OK;
  },
};

function selectTasks(store: ProjectStore, wanted: readonly string[]): string[] {
  const known = [...new Set(store.listScores().map((r) => r.task ?? UNROUTED))].sort();
  if (wanted.length === 0) {
    if (known.length === 0) throw new CliError(`${store.dir} has no scores yet; run \`lots score\` first`);
    return known;
  }
  const unknown = wanted.filter((t) => !known.includes(t));
  if (unknown.length > 0) throw new CliError(`no scores for task ${unknown.map((t) => `"${t}"`).join(', ')}; scored tasks: ${known.join(', ') || '(none)'}`);
  return wanted.filter((t, i) => wanted.indexOf(t) === i);
}

/** Run → tasks: each task's latest run from this model file (by the path recorded with the scores,
 * else by the file's hash), or --run. */
async function planChecks(store: ProjectStore, tasks: readonly string[], model: string, pinned: string | undefined, io: CliIO): Promise<Map<string, string[]>> {
  if (pinned !== undefined && !parseRunKey(pinned))
    throw new CliError(`run "${pinned}" is not a run computed with a model (imported scores cannot be rechecked)`);
  let hash: string | undefined;
  const plans = new Map<string, string[]>();
  for (const task of tasks) {
    const rows = store.listScores().filter((r) => (r.task ?? UNROUTED) === task && parseRunKey(r.run));
    let run: string | undefined;
    if (pinned !== undefined) run = rows.some((r) => r.run === pinned) ? pinned : undefined;
    else {
      run = rows.filter((r) => r.model !== undefined && resolve(r.model) === model).at(-1)?.run;
      if (run === undefined) {
        hash ??= await modelFileHash(model);
        run = rows.filter((r) => parseRunKey(r.run)!.modelHash === hash).at(-1)?.run;
      }
    }
    if (run === undefined) {
      io.err(`${task}: no scores ${pinned !== undefined ? `in run ${pinned}` : 'from this model'}; skipped`);
      continue;
    }
    plans.set(run, [...(plans.get(run) ?? []), task]);
  }
  return plans;
}

/** 1, 2, 3 and each task's swept K, up to the most tools any of the tasks ranks. */
function defaultBudgets(store: ProjectStore, run: string, tasks: readonly string[]): number[] {
  const rows = store.listScores(run);
  let longest = 0;
  const ks = new Set<number>();
  for (const task of tasks) {
    const ranked = fitTask(
      task,
      rows.filter((r) => (r.task ?? UNROUTED) === task),
      { bootstrap: false },
    ).ranking.length;
    longest = Math.max(longest, ranked);
    const swept = store.readSweep(task)?.bestK;
    if (swept !== undefined && swept > 0 && swept <= ranked) ks.add(swept);
  }
  for (const k of DEFAULT_KS) if (k <= longest) ks.add(k);
  return [...ks].sort((a, b) => a - b);
}

function printCheck(io: CliIO, task: string, check: FaithfulnessCheck): void {
  io.out('');
  io.out(
    `${task}  (run ${check.run}; ${check.intervention} removal; ${check.points[0]?.draws ?? 0} random draws per request; model ${check.modelName ?? check.model})`,
  );
  const columns = [
    ...['K', 'together', 'Σ singles', 'random K', 'beats random', 'n'].map((header) => ({ header, align: 'right' as const })),
    { header: 'top-K' },
  ];
  const rows = check.points.map((p) =>
    p.n === 0
      ? [String(p.k), '—', '—', '—', '—', '0', p.tools.join(', ')]
      : [String(p.k), p.joint.toFixed(4), p.additive.toFixed(4), p.random.toFixed(4), `${Math.round(p.beatsRandom * 100)}%`, String(p.n), p.tools.join(', ')],
  );
  for (const line of tableLines(columns, rows, { indent: '  ' })) io.out(line);
  for (const p of check.points) io.out(`  K=${p.k}: ${faithfulnessVerdict(p)}`);
}
