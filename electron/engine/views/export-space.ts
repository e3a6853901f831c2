// The export view: a task's space — a given version, else the latest approved one, else the proposal
// the space editor shows (top-K at the recommended budget) — in one of the export formats or as the
// one-page report. The CLI (`lots export`) and the API (renderExport, saveExport, renderReport,
// saveReport) both call exportTaskSpace, so the same project gives the same bytes.
//
// The rules, one each:
// - run: the one asked for, else the run the exported version was accepted from while it still holds the
//   task's scores, else the task's latest run (read-model/choose-run.ts);
// - tool definitions: from the task's own traces, the latest definition seen for each name (a tool that
//   only another task's menu defines is missing: that task's definition need not be the one served here);
// - the proposal: top-K at the budget view's recommended K (the sweep's best K, else the surrogate's).
import { collectToolDefinitions, exportSpace, type ExportableSpace, type SpaceExportFormat } from '../../../shared/export';
import type { SpaceVersion } from '../../../shared/project/spaces';
import type { ProjectStore } from '../store';
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

export function exportTaskSpace(store: ProjectStore, index: ProjectIndex, request: ExportSpaceRequest): ExportSpaceResult {
  const { task, format } = request;
  const versions = store.readSpaces(task).versions;
  let version: SpaceVersion | undefined;
  if (request.version !== undefined) {
    version = versions.find((x) => x.version === request.version);
    if (!version) throw notFound(`task "${task}" has no space version ${request.version} (it has ${versions.length})`);
  } else version = versions.at(-1);
  const data = index.task(task, request.run, version?.run);
  const { space, proposal } = exportableSpace(store, data, version);
  const out = exportSpace(
    format,
    space,
    format === 'report' ? { report: reportContext(store, data, space) } : { definitions: collectToolDefinitions(data.traces) },
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
  store: ProjectStore,
  data: TaskData,
  version: SpaceVersion | undefined,
): { space: ExportableSpace; proposal: { k: number; by: 'sweep' | 'surrogate' | null } } {
  const scores = (data.fit?.ranking ?? []).map((r) => ({ tool: r.tool, mean: r.mean, n: r.n }));
  if (version) {
    const v = version;
    return {
      space: { task: data.task, version: v.version, tools: v.tools, rule: v.rule, note: v.note, scores, run: v.run, createdAt: v.createdAt },
      proposal: { k: v.tools.length, by: null },
    };
  }
  const budget = buildBudget(data, store.readSweep(data.task));
  const state = buildSpaceState(store, data);
  return {
    space: { task: data.task, version: null, tools: state.proposal.tools, rule: state.proposal.rule, note: '', scores, ...(data.run ? { run: data.run } : {}) },
    proposal: { k: state.proposal.rule.kind === 'topk' ? state.proposal.rule.k : state.proposal.tools.length, by: budget.recommendedBy },
  };
}

function reportContext(store: ProjectStore, data: TaskData, space: ExportableSpace) {
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
