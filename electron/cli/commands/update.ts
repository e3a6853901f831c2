// `lots update`: fold a task's new batches of scored traces into its running scores and propose the next
// version of its space (paper B.3, D.5). Nothing is applied: the operator approves the proposal.
import { choice, flagInt, flagNumber, flagString, requireFlag } from '../args';
import { EXIT_OK, EXIT_PARTIAL, type CliIO, type Command } from '../command';
import { ProjectStore } from '../../engine/store';
import { ProjectIndex } from '../../engine/read-model/project-index';
import { updateSpaces, type TaskUpdateResult } from '../../engine/usecases/update';
import { describeUpdateRule as describeRule, type Crossing } from '../../../shared/project/updates';

const RULES = ['topk', 'support'] as const;

export const command: Command = {
  name: 'update',
  summary: "fold new batches of scored traces into each task's running scores and propose its next space (not applied)",
  usage: 'lots update --project <dir> [--task T] [--alpha 0.2] [--rule topk|support] [--k N] [--tau x --phi p] [--run r] [--refold] [--json]',
  flags: {
    project: { type: 'string', description: 'the project folder' },
    task: { type: 'string', description: 'only this task (default: every task with scores)' },
    alpha: { type: 'string', description: "EMA weight α of a new batch, in (0, 1] (default: the task's stored α, else 0.2)" },
    rule: { type: 'string', description: "how the proposal is cut: topk or support (default: the task's stored rule, else topk)" },
    k: { type: 'string', description: "budget of the top-K rule (default: stored, else the budget sweep's K, else the approved size)" },
    tau: { type: 'string', description: 'support rule: a request supports a tool when I_x(s) > tau (default 0)' },
    phi: { type: 'string', description: 'support rule: keep tools whose running support is ≥ phi (default 0.05)' },
    run: { type: 'string', description: "the scoring run to read the batches from (default: the stored run, else the task's latest)" },
    refold: { type: 'boolean', description: 'fold every batch again from the rows now in the run' },
    json: { type: 'boolean', description: 'print the results as one JSON object' },
  },
  details: [
    "Each import of a task's traces is one batch, in import order. A batch whose traces have score rows in",
    'the run updates the running scores, Ĩ(s) ← α·Ī(s) + (1−α)·Ĩ(s); the first batch that scores a tool',
    'starts it at its batch mean, and a tool a batch did not score keeps its running score. The rule then',
    'proposes the next space: top-K of the running scores, or (support) the tools whose running share of',
    'requests with I_x(s) > tau is at least phi. The history, α and the rule are stored in the project',
    "(updates/<task>.json) and shown in the Studio's Space view, where the proposal is approved (or not).",
    'A batch with no score rows yet waits, and the batches after it wait behind it: score them first',
    '(`lots score --project P`). Changing α, the rule or the run folds the whole history again.',
    '',
    'Exit codes: 0 ok; 1 some batches are waiting for scores; 2 usage error or nothing to update.',
  ].join('\n'),
  async run(args, io) {
    const project = requireFlag(args, 'project');
    const rule = choice(args, 'rule', RULES, undefined);
    const store = ProjectStore.open(project);
    const results = updateSpaces(store, new ProjectIndex(store), {
      task: flagString(args, 'task'),
      alpha: flagNumber(args, 'alpha'),
      rule,
      k: flagInt(args, 'k', { min: 1 }),
      tau: flagNumber(args, 'tau'),
      phi: flagNumber(args, 'phi'),
      run: flagString(args, 'run'),
      refold: args.flags.refold === true,
    });
    if (args.flags.json) io.data!(JSON.stringify({ tasks: Object.fromEntries(results.map((r) => [r.task, jsonOf(r)])) }, null, 2));
    else for (const r of results) printResult(r, project, io);
    return results.some((r) => r.waiting.length > 0) ? EXIT_PARTIAL : EXIT_OK;
  },
};

function jsonOf(r: TaskUpdateResult) {
  return {
    run: r.run,
    alpha: r.alpha,
    rule: r.rule,
    refolded: r.refolded,
    folded: r.folded.map((b) => b.batch),
    waiting: r.waiting,
    empty: r.empty,
    batches: r.history.batches,
    proposal: r.proposal,
    approved: r.approved ? { version: r.approved.version, tools: r.approved.tools } : null,
    diff: r.diff,
    applied: false,
  };
}

function printResult(r: TaskUpdateResult, project: string, io: CliIO): void {
  io.out(`task ${r.task}: run ${r.run}, α = ${r.alpha}, rule ${describeRule(r.rule)}${r.refolded ? ` — history folded again: ${r.refoldReason}` : ''}`);
  const folded = new Set(r.folded.map((b) => b.batch));
  for (const b of r.history.batches) {
    const mark = folded.has(b.batch) ? 'new' : '   ';
    io.out(
      `  ${mark} batch ${b.batch}  ${b.source}${b.label ? ` (${b.label})` : ''}  ${b.scored}/${b.traces} scored  → ${b.proposed.length} tools: ${b.proposed.join(', ') || '(none)'}`,
    );
    for (const c of b.entered) io.out(`        + ${crossing(c, 'entered')}`);
    for (const c of b.left) io.out(`        − ${crossing(c, 'left')}`);
    const called = Object.entries(b.calledWhileDeferred ?? {});
    if (called.length > 0)
      io.out(
        `        called while deferred: ${called.map(([t, n]) => `${t} (${n} trace${n === 1 ? '' : 's'})`).join(', ')}${b.promoted?.length ? `; promoted (pinned in this proposal): ${b.promoted.join(', ')}` : '; none promoted (the rule keeps them deferred)'}`,
      );
  }
  for (const w of r.waiting) io.out(`  waiting: ${w.source} (${w.traces} traces, no score rows in this run yet: lots score --project ${project})`);
  for (const e of r.empty)
    io.out(
      `  skipped: ${e.source} (${e.traces} traces: ${e.reason === 'unanswered' ? 'requests with no answer yet, nothing to score' : 'their rows scored no tool'})`,
    );
  if (r.history.batches.length === 0) {
    io.out('  no batch folded yet');
    return;
  }
  const against = r.approved ? `against approved v${r.approved.version}` : 'no version approved yet';
  const diff = [...r.diff.added.map((t) => `+${t}`), ...r.diff.removed.map((t) => `−${t}`)].join(' ') || 'no change';
  io.out(`  proposal (${r.proposal.length} tools, not applied): ${r.proposal.join(', ') || '(none)'}  — ${against}: ${diff}`);
  io.out(
    `  approve it with \`lots space approve --project ${project} --task ${r.task} --from update --note "…"\`, or in the Studio's Space view (\`lots ui\`).`,
  );
}

function crossing(c: Crossing, how: 'entered' | 'left'): string {
  const cmp = how === 'entered' ? '≥' : c.support !== undefined ? '<' : '≤';
  if (c.support !== undefined) return `${c.tool} ${how} (running ${c.running.toFixed(3)}, support ${c.support.toFixed(2)} ${cmp} phi ${c.cut ?? 0})`;
  if (c.cut === null) return `${c.tool} ${how} (running ${c.running.toFixed(3)}; the space had room)`;
  return `${c.tool} ${how} (running ${c.running.toFixed(3)} ${cmp} cut ${c.cut.toFixed(3)})`;
}
