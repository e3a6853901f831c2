// `lots space show|propose|edit|approve|diff|history`: a task's tool space from the command line, over the
// same functions as the Studio's Space view — the state it shows is views/spaces.ts buildSpaceState (the
// API's getSpaces), a draft and its edits are shared/lots/space-draft.ts (the view's draft slice), and an
// approval is usecases/space.ts acceptSpace (the API's acceptSpace). So `lots space edit` writes the
// version the Space view writes for the same edits (tests/cli/space.test.ts compares the files).
import { choice, flagInt, flagString, requireFlag, UsageError, type ParsedArgs } from '../args';
import { CliError, EXIT_OK, type CliIO, type Command } from '../command';
import { tableLines, type Column } from '../table';
import { ProjectStore } from '../../engine/store';
import { ProjectIndex, type TaskData } from '../../engine/read-model/project-index';
import { buildSpaceState } from '../../engine/views/spaces';
import { acceptSpace } from '../../engine/usecases/space';
import {
  acceptInputOf,
  draftFrom,
  draftStates,
  editDraft,
  rankingOf,
  SPACE_EDIT_ACTIONS,
  stateOf,
  type SpaceDraft,
  type SpaceEditAction,
} from '../../../shared/lots/space-draft';
import { selectTopK } from '../../../shared/lots/select';
import { diffStates, toolStateIn, type SpaceVersion, type ToolState } from '../../../shared/project/spaces';
import { describeRule } from '../../../shared/export/space-report';
import type { SpaceState } from '../../../shared/api/types';

const common = {
  project: { type: 'string', description: 'the project folder' },
  task: { type: 'string', description: 'the task' },
  run: { type: 'string', description: "the scoring run the ranking comes from (default: the task's latest)" },
  json: { type: 'boolean', description: 'print one JSON object for scripts' },
} as const;

interface Opened {
  store: ProjectStore;
  data: TaskData;
  state: SpaceState;
  task: string;
  run: string | undefined;
}

function open(args: ParsedArgs): Opened {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const store = ProjectStore.open(requireFlag(args, 'project'));
  const task = requireFlag(args, 'task');
  const run = flagString(args, 'run');
  const data = new ProjectIndex(store).task(task, run);
  return { store, data, state: buildSpaceState(store, data), task: data.task, run };
}

/** Every tool of the task with its rank, score and state in `states`. */
function toolRows(state: SpaceState, stateOfTool: (tool: string) => ToolState) {
  return state.candidates.map((c) => ({ tool: c.tool, rank: c.rank, mean: c.mean, n: c.n, state: stateOfTool(c.tool) }));
}

const TOOL_COLUMNS: readonly Column[] = [
  { header: '#', align: 'right', min: 3 },
  { header: 'tool' },
  { header: 'Ī', align: 'right', min: 7 },
  { header: 'n', align: 'right', min: 4 },
  { header: 'state' },
];

function printRows(rows: ReturnType<typeof toolRows>, io: CliIO): void {
  const cells = rows.map((r) => [
    String(r.rank ?? '—'),
    r.tool,
    r.mean === null ? 'unscored' : (r.mean >= 0 ? '+' : '') + r.mean.toFixed(3),
    String(r.n || '—'),
    r.state,
  ]);
  for (const line of tableLines(TOOL_COLUMNS, cells, { indent: '  ' })) io.out(line);
}

function counts(rows: readonly { state: ToolState }[]): string {
  const n = (s: ToolState) => rows.filter((r) => r.state === s).length;
  return `${n('pinned')} pinned, ${n('deferred')} deferred, ${n('hidden')} hidden`;
}

function versionJson(v: SpaceVersion) {
  return {
    version: v.version,
    tools: v.tools,
    deferred: v.deferred,
    pinned: v.pinned,
    banned: v.banned,
    deferEdits: v.deferEdits,
    rule: v.rule,
    note: v.note,
    run: v.run ?? null,
    createdAt: v.createdAt,
  };
}

const STATES_HELP = [
  'Three states per tool: pinned (documented in full, loaded up front), deferred (callable, not loaded',
  'up front: `defer_loading`, or name and short description only), hidden (not offered). The proposal',
  "pins the rule's top-K (K from the budget sweep, else every tool with a positive mean), defers the task's",
  'other observed (scored) tools and hides the rest. See docs/spaces.md.',
].join('\n');

export const showCommand: Command = {
  name: 'space show',
  summary: "show a task's approved space: every tool with its score and state (pinned, deferred, hidden)",
  usage: 'lots space show --project <dir> --task <t> [--run r] [--json]',
  flags: { ...common },
  details: [STATES_HELP, '', 'Exit codes: 0 shown (also when nothing is approved yet: it says so); 2 unknown task or usage error.'].join('\n'),
  async run(args, io) {
    const { state, task } = open(args);
    const approved = state.approved;
    const rows = toolRows(state, (t) => (approved ? toolStateIn(approved, t) : 'hidden'));
    if (args.flags.json) {
      io.data!(
        JSON.stringify(
          { task, approved: approved ? versionJson(approved) : null, tools: approved ? rows : [], changedSinceApproval: state.changedSinceApproval },
          null,
          2,
        ),
      );
      return EXIT_OK;
    }
    if (!approved) {
      io.out(`task ${task}: no space approved yet. \`lots space propose\` shows the proposal, \`lots space approve\` approves it.`);
      return EXIT_OK;
    }
    io.out(`task ${task}: approved v${approved.version} (${describeRule(approved.rule)}; ${counts(rows)}), ${approved.createdAt}`);
    if (approved.note) io.out(`  note: ${approved.note}`);
    printRows(rows, io);
    if (state.changedSinceApproval) io.out(`Scores changed since v${approved.version} was approved: review the proposal (\`lots space propose\`).`);
    return EXIT_OK;
  },
};

export const proposeCommand: Command = {
  name: 'space propose',
  summary: 'show the proposed space of a task (top-K pinned, other observed tools deferred, the rest hidden); nothing is written',
  usage: 'lots space propose --project <dir> --task <t> [--from proposal|update] [--k N] [--run r] [--json]',
  flags: {
    ...common,
    from: { type: 'string', description: "proposal (the ranking's top-K, default) or update (the continual update's proposal, `lots update`)" },
    k: { type: 'string', description: 'pin the top N instead of the recommended K' },
  },
  details: [STATES_HELP, '', 'Exit codes: 0 shown; 2 unknown task, no scores, or usage error.'].join('\n'),
  async run(args, io) {
    const { state, task } = open(args);
    const draft = startDraft(state, args, 'proposal');
    if (rankingOf(state).length === 0) {
      throw new CliError(`task "${task}" has no scores yet, so there is nothing to propose: score its traces first (\`lots score --project P\`)`);
    }
    const states = draftStates(rankingOf(state), draft);
    const rows = toolRows(state, (t) => stateOf(states, t));
    const rule = acceptInputOf(task, state, draft).rule;
    if (args.flags.json) {
      io.data!(JSON.stringify({ task, rule, tools: states.pinned, deferred: states.deferred, rows, approved: state.approved?.version ?? null }, null, 2));
      return EXIT_OK;
    }
    io.out(`task ${task}: proposal (${describeRule(rule)}; ${counts(rows)})`);
    printRows(rows, io);
    return EXIT_OK;
  },
};

const editFlags = Object.fromEntries(
  SPACE_EDIT_ACTIONS.map((a) => [
    a,
    {
      type: 'string' as const,
      multi: true,
      description: {
        keep: 'pin these tools for this version',
        drop: 'hide these tools for this version (same as --hide)',
        pin: 'pin these tools, and keep them pinned in later updates',
        defer: 'defer these tools (callable, not loaded up front), and keep them deferred in later updates',
        hide: 'hide these tools for this version',
        ban: 'hide these tools, and keep them hidden in later updates',
      }[a],
    },
  ]),
);

export const editCommand: Command = {
  name: 'space edit',
  summary: "edit a task's space (pin, defer, hide, keep, drop, ban tools) and approve the result as a new version, with a note",
  usage:
    'lots space edit --project <dir> --task <t> [--pin a,b] [--defer c] [--hide d] [--keep e] [--drop f] [--ban g] [--k N] --note "why" [--from approved|proposal|update] [--json]',
  flags: {
    ...common,
    ...editFlags,
    note: { type: 'string', description: 'why the space was edited (required: it is kept with the version)' },
    k: { type: 'string', description: 'the budget K of the top-K the edits apply to (default: that of the version edited)' },
    from: { type: 'string', description: 'what the edits apply to: approved (the approved version, default when there is one), proposal, or update' },
  },
  details: [
    STATES_HELP,
    '',
    'Starts from the approved version (as the Space view does), applies each edit, and approves the result',
    'as the next version through the same use case as the Studio. Each flag takes one or more tool names',
    '(repeat it or separate names with commas). --note is required, as in the Space view.',
    '',
    "Exit codes: 0 approved; 2 a tool not on the task's menus, a tool in two edits, no note, or a usage error.",
  ].join('\n'),
  async run(args, io) {
    const note = flagString(args, 'note')?.trim();
    if (!note) throw new UsageError('--note is required for an edit: say why (it is kept with the version, as in the Space view)');
    const opened = open(args);
    const { state, task } = opened;
    let draft = startDraft(state, args, state.approved ? 'approved' : 'proposal');
    const seen = new Map<string, SpaceEditAction>();
    const known = new Set(state.candidates.map((c) => c.tool));
    for (const action of SPACE_EDIT_ACTIONS) {
      for (const tool of (args.flags[action] as string[] | undefined) ?? []) {
        if (!known.has(tool)) {
          throw new UsageError(`--${action} ${tool}: no tool "${tool}" on the menus of task "${task}"; its tools: ${[...known].join(', ')}`);
        }
        const before = seen.get(tool);
        if (before && before !== action) throw new UsageError(`"${tool}" is given to both --${before} and --${action}; give each tool one edit`);
        seen.set(tool, action);
        draft = editDraft(draft, tool, action, selectTopK(rankingOf(state), draft.k).includes(tool));
      }
    }
    if (seen.size === 0) throw new UsageError(`no edit given: name tools with ${SPACE_EDIT_ACTIONS.map((a) => `--${a}`).join(', ')}`);
    return approve(opened, { ...draft, note }, args, io);
  },
};

export const approveCommand: Command = {
  name: 'space approve',
  summary: "approve a task's proposed space (or the continual update's proposal) as its next version",
  usage: 'lots space approve --project <dir> --task <t> [--from proposal|update] [--k N] [--note "why"] [--json]',
  flags: {
    ...common,
    from: { type: 'string', description: "proposal (the ranking's top-K, default) or update (the continual update's proposal)" },
    k: { type: 'string', description: 'pin the top N instead of the recommended K' },
    note: { type: 'string', description: 'why (kept with the version; required when the approval differs from the proposal)' },
  },
  details: [
    STATES_HELP,
    '',
    'Approves the proposal as it stands, as the Space view\'s "Approve" does on an unedited draft: the next',
    'version number, the rule, the run and the running scores are recorded. To change tools, use `lots space edit`.',
    '',
    'Exit codes: 0 approved; 2 no scores to propose from, the same as the approved version, or a usage error.',
  ].join('\n'),
  async run(args, io) {
    const opened = open(args);
    const draft = startDraft(opened.state, args, 'proposal');
    if (rankingOf(opened.state).length === 0) {
      throw new CliError(`task "${opened.task}" has no scores yet, so there is no proposal to approve: score its traces first (\`lots score --project P\`)`);
    }
    return approve(opened, { ...draft, note: flagString(args, 'note')?.trim() || draft.note }, args, io);
  },
};

function startDraft(state: SpaceState, args: ParsedArgs, fallback: 'approved' | 'proposal'): SpaceDraft {
  const from = choice(args, 'from', ['approved', 'proposal', 'update'] as const, fallback);
  if (from === 'update' && !state.update) {
    throw new CliError(`task "${state.task}" has no continual-update proposal yet: run \`lots update --project P --task ${JSON.stringify(state.task)}\` first`);
  }
  const draft = draftFrom(state, from);
  const k = flagInt(args, 'k', { min: 1 });
  return k === undefined ? draft : { ...draft, k: Math.min(k, rankingOf(state).length) };
}

function approve(opened: Opened, draft: SpaceDraft, args: ParsedArgs, io: CliIO): number {
  const { store, data, state, task, run } = opened;
  const input = acceptInputOf(task, state, draft, run);
  const previous = state.approved;
  if (
    previous &&
    JSON.stringify([input.tools, input.deferred, input.pinned, input.banned, input.deferEdits]) ===
      JSON.stringify([previous.tools, previous.deferred, previous.pinned, previous.banned, previous.deferEdits])
  ) {
    throw new CliError(`the space of task "${task}" is already v${previous.version} as it stands: nothing to approve`);
  }
  const version = acceptSpace(store, data, input);
  const changes = diffStates(previous, version);
  if (args.flags.json) {
    io.data!(JSON.stringify({ task, approved: versionJson(version), previous: previous?.version ?? null, changes }, null, 2));
    return EXIT_OK;
  }
  const hidden = state.candidates.length - version.tools.length - version.deferred.length;
  io.out(
    `task ${task}: approved v${version.version} (${describeRule(version.rule)}): ${version.tools.length} pinned, ${version.deferred.length} deferred, ${hidden} hidden`,
  );
  io.out(`  pinned:   ${version.tools.join(', ') || '(none)'}`);
  io.out(`  deferred: ${version.deferred.join(', ') || '(none)'}`);
  printChanges(changes, previous ? `v${previous.version}` : 'nothing approved', io);
  return EXIT_OK;
}

function printChanges(changes: ReturnType<typeof diffStates>, against: string, io: CliIO): void {
  if (changes.length === 0) io.out(`  no tool changed state since ${against}`);
  else for (const c of changes) io.out(`  ${c.tool}: ${c.from} → ${c.to}  (since ${against})`);
}

export const diffCommand: Command = {
  name: 'space diff',
  summary: "which tools changed state between two versions of a task's space, or between the approved one and the proposal",
  usage: 'lots space diff --project <dir> --task <t> [--from V] [--to W|proposal] [--json]',
  flags: {
    ...common,
    from: { type: 'string', description: 'a version number (default: the one before --to)' },
    to: { type: 'string', description: 'a version number, or "proposal" (default: the latest version)' },
  },
  details: [STATES_HELP, '', 'Exit codes: 0 shown; 2 unknown task or version, or a usage error.'].join('\n'),
  async run(args, io) {
    const { state, task } = open(args);
    const version = (flag: string, value: string): SpaceVersion => {
      const n = Number(value);
      const v = Number.isInteger(n) ? state.versions[n] : undefined;
      if (!v)
        throw new UsageError(
          `--${flag} ${value}: task "${task}" has versions ${state.versions.length === 0 ? '(none yet)' : `v0 … v${state.versions.length - 1}`}${flag === 'to' ? ', or "proposal"' : ''}`,
        );
      return v;
    };
    const toFlag = flagString(args, 'to');
    let to: Pick<SpaceVersion, 'tools' | 'deferred'>;
    let toName: string;
    if (toFlag === 'proposal') {
      const states = draftStates(rankingOf(state), draftFrom(state, 'proposal'));
      to = { tools: states.pinned, deferred: states.deferred };
      toName = 'the proposal';
    } else if (toFlag !== undefined) {
      const v = version('to', toFlag);
      to = v;
      toName = `v${v.version}`;
    } else {
      if (!state.approved) throw new CliError(`task "${task}" has no approved version yet; compare with the proposal: --to proposal`);
      to = state.approved;
      toName = `v${state.approved.version}`;
    }
    const fromFlag = flagString(args, 'from');
    const toIndex = toFlag === 'proposal' || toFlag === undefined ? state.versions.length - (toFlag === 'proposal' ? 0 : 1) : Number(toFlag);
    const from = fromFlag !== undefined ? version('from', fromFlag) : (state.versions[toIndex - 1] ?? null);
    const changes = diffStates(from, to);
    const fromName = from ? `v${from.version}` : 'nothing approved';
    if (args.flags.json) {
      io.data!(JSON.stringify({ task, from: from?.version ?? null, to: toFlag === 'proposal' ? 'proposal' : toName, changes }, null, 2));
      return EXIT_OK;
    }
    io.out(`task ${task}: ${fromName} → ${toName}`);
    printChanges(changes, fromName, io);
    return EXIT_OK;
  },
};

export const historyCommand: Command = {
  name: 'space history',
  summary: "list the approved versions of a task's space: date, rule, pinned and deferred tools, note",
  usage: 'lots space history --project <dir> --task <t> [--json]',
  flags: { ...common },
  details: 'Exit codes: 0 listed (also when nothing is approved yet); 2 unknown task or usage error.',
  async run(args, io) {
    const { state, task } = open(args);
    if (args.flags.json) {
      io.data!(
        JSON.stringify(
          { task, versions: state.versions.map((v) => ({ ...versionJson(v), changes: diffStates(state.versions[v.version - 1] ?? null, v) })) },
          null,
          2,
        ),
      );
      return EXIT_OK;
    }
    if (state.versions.length === 0) {
      io.out(`task ${task}: no version approved yet`);
      return EXIT_OK;
    }
    for (const v of [...state.versions].reverse()) {
      io.out(`v${v.version}  ${v.createdAt}  ${describeRule(v.rule)}: ${v.tools.length} pinned, ${v.deferred.length} deferred`);
      io.out(`    pinned:   ${v.tools.join(', ') || '(none)'}`);
      if (v.deferred.length > 0) io.out(`    deferred: ${v.deferred.join(', ')}`);
      if (v.note) io.out(`    note: ${v.note}`);
    }
    io.out("(hidden: every other tool of the task's menus)");
    return EXIT_OK;
  },
};
