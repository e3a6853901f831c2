// The export view: a task's space — a given version, else the approved one (read-model/approved-space.ts);
// the proposal the space editor shows only when asked for by name (`lots export --proposed`) or for the
// report — in one of the export formats or as the one-page report. A task with no approved space is
// refused (SPACE_NOT_APPROVED), never exported as an empty allow-list that would block every tool. The CLI (`lots export`) and the API (renderExport, saveExport, renderReport,
// saveReport) both call exportTaskSpace, so the same project gives the same bytes.
//
// The rules, one each:
// - run: the one asked for, else the run the exported version was accepted from while it still holds the
//   task's scores, else the task's latest run (read-model/choose-run.ts);
// - tool definitions: from the task's own traces, the latest definition seen for each name (a tool that
//   only another task's menu defines is missing: that task's definition need not be the one served here);
// - the proposal: top-K at the budget view's recommended K (the sweep's best K, else the surrogate's).
import { collectToolDefinitions, exportSpace, type ExportableSpace, type SpaceExportFormat } from '../../../shared/export';
import { ExpectedError } from '../../../shared/api/errors';
import { approvedSpace } from '../read-model/approved-space';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { ReadOnlyProjectStore } from '../store';
import { buildBudget } from './budget';
import { notFound } from '../../../shared/api/errors';
import { buildRanking } from './ranking';
import { buildSpaceState } from './spaces';
import type { ProjectIndex, TaskData } from '../read-model/project-index';

export interface ExportSpaceRequest {
  task: string;
  format: SpaceExportFormat;
  /** A space version (default: the latest approved one, else the proposal). */
  version?: number;
  /** The scoring run for the scores and the ranking (default: see above). */
  run?: string;
  /** Export the proposal when nothing is approved (default: refused, except for the report). */
  proposed?: boolean;
  /** mcp-claude: the MCP server's name for `mcp__<server>__<tool>` names. */
  mcpServer?: string;
}

export interface ExportSpaceResult {
  format: SpaceExportFormat;
  text: string;
  filename: string;
  mime: string;
  space: ExportableSpace;
  /** What was exported: a space version, the proposal, or (no version, no scores) an empty proposal. */
  basis: 'version' | 'proposal' | 'empty';
  /** With basis "proposal": its K and where K came from. */
  proposal?: { k: number; by: 'sweep' | 'surrogate' | null };
  /** The run the scores come from; null without scores. */
  run: string | null;
}

export function exportTaskSpace(store: ReadOnlyProjectStore, index: ProjectIndex, request: ExportSpaceRequest): ExportSpaceResult {
  const { task, format } = request;
  let version: SpaceVersion | undefined;
  if (request.version !== undefined) {
    const versions = store.readSpaces(task).versions;
    version = versions.find((x) => x.version === request.version);
    if (!version) throw notFound(`task "${task}" has no space version ${request.version} (it has ${versions.length})`);
  } else version = approvedSpace(store, task) ?? undefined;
  if (!version && format !== 'report' && request.proposed !== true) {
    index.task(task); // an unknown task is NOT_FOUND first, with the tasks to pick from
    throw new ExpectedError(
      'SPACE_NOT_APPROVED',
      `task "${task}" has no approved space, so there is nothing to export (an empty allow-list would block every tool): ` +
        `approve its space first — in the Space view, or \`lots space approve --project P --task ${JSON.stringify(task)}\` — ` +
        'or export the unapproved proposal on purpose with `lots export --proposed`',
    );
  }
  const data = index.task(task, request.run, version?.run);
  const { space, proposal } = exportableSpace(store, data, version);
  const out = exportSpace(
    format,
    space,
    format === 'report'
      ? { report: reportContext(store, data, space) }
      : { definitions: collectToolDefinitions(data.traces), ...(request.mcpServer !== undefined ? { mcpServer: request.mcpServer } : {}) },
  );
  return {
    format,
    text: out.text,
    filename: out.filename,
    mime: out.mime,
    space,
    basis: version ? 'version' : data.rows.length > 0 ? 'proposal' : 'empty',
    ...(version ? {} : { proposal }),
    run: data.run,
  };
}

function exportableSpace(
  store: ReadOnlyProjectStore,
  data: TaskData,
  version: SpaceVersion | undefined,
): { space: ExportableSpace; proposal: { k: number; by: 'sweep' | 'surrogate' | null } } {
  const scores = (data.fit?.ranking ?? []).map((r) => ({ tool: r.tool, mean: r.mean, n: r.n }));
  if (version) {
    const v = version;
    return {
      space: {
        task: data.task,
        version: v.version,
        tools: v.tools,
        deferred: v.deferred,
        rule: v.rule,
        note: v.note,
        scores,
        run: v.run,
        createdAt: v.createdAt,
      },
      proposal: { k: v.tools.length, by: null },
    };
  }
  const budget = buildBudget(data, store.readSweep(data.task));
  const state = buildSpaceState(store, data);
  return {
    space: {
      task: data.task,
      version: null,
      tools: state.proposal.tools,
      deferred: state.proposal.deferred,
      rule: state.proposal.rule,
      note: '',
      scores,
      ...(data.run ? { run: data.run } : {}),
    },
    proposal: { k: state.proposal.rule.kind === 'topk' ? state.proposal.rule.k : state.proposal.tools.length, by: budget.recommendedBy },
  };
}

function reportContext(store: ReadOnlyProjectStore, data: TaskData, space: ExportableSpace) {
  const ranking = buildRanking(data, space.tools.length);
  const budget = buildBudget(data, store.readSweep(data.task));
  return {
    ranking: ranking.rows.map((r) => ({ tool: r.tool, mean: r.mean, n: r.n, lo: r.lo, hi: r.hi, ...(r.topKShare !== null ? { topKShare: r.topKShare } : {}) })),
    budget: budget.points.map((p) => ({ k: p.k, accuracy: p.accuracy, surrogate: p.surrogate })),
    chosenK: space.tools.length,
    requests: ranking.requests,
    generatedAt: new Date().toISOString(),
  };
}

export interface ExportAllResult {
  /** One export per task with an approved space, in task order. */
  exported: (ExportSpaceResult & { task: string })[];
  /** The tasks left out, and why (no approved space). */
  skipped: { task: string; reason: string }[];
}

/** "Export every approved space": each task's approved version in one format; unapproved tasks are listed, not exported. */
export function exportAllApproved(
  store: ReadOnlyProjectStore,
  index: ProjectIndex,
  request: { format: SpaceExportFormat; mcpServer?: string },
): ExportAllResult {
  const exported: ExportAllResult['exported'] = [];
  const skipped: ExportAllResult['skipped'] = [];
  index.sync();
  for (const task of index.tasks()) {
    if (!approvedSpace(store, task)) {
      skipped.push({ task, reason: 'no approved space' });
      continue;
    }
    const out = exportTaskSpace(store, index, { task, ...request });
    // Two task names can share a file-name stem ("a b", "a_b"): the later one is numbered.
    const taken = new Set(exported.map((e) => e.filename));
    let filename = out.filename;
    for (let i = 2; taken.has(filename); i++) filename = out.filename.replace(/^([^.]*)/, `$1-${i}`);
    exported.push({ task, ...out, filename });
  }
  if (exported.length === 0) {
    throw new ExpectedError(
      'SPACE_NOT_APPROVED',
      `no task of this project has an approved space (${skipped.length} task${skipped.length === 1 ? '' : 's'} without one): approve a space first — in the Space view, or \`lots space approve --project P --task T\``,
    );
  }
  return { exported, skipped };
}
