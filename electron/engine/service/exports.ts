// Export of a task's space (approved version, or the proposal when none is approved) in every format,
// and the one-page report. The formats themselves live in shared/export.
import { writeFileSync } from 'node:fs';
import { collectToolDefinitions, exportSpace, type ExportableSpace, type SpaceExportFormat } from '../../../shared/export';
import type { ExportFormat, ExportText } from '../../../shared/api/types';
import type { ProjectStore } from '../store';
import { buildBudget } from './budget';
import { notFound } from './errors';
import { buildRanking } from './ranking';
import { buildSpaceState } from './spaces';
import type { TaskData } from './task-data';

export function exportableSpace(store: ProjectStore, data: TaskData, version?: number): ExportableSpace {
  const state = buildSpaceState(store, data);
  const scores = (data.fit?.ranking ?? []).map((r) => ({ tool: r.tool, mean: r.mean, n: r.n }));
  if (version !== undefined) {
    const v = state.versions.find((x) => x.version === version);
    if (!v) throw notFound(`task "${data.task}" has no space version ${version} (it has ${state.versions.length})`);
    return { task: data.task, version: v.version, tools: v.tools, rule: v.rule, note: v.note, scores, run: v.run, createdAt: v.createdAt };
  }
  if (state.approved) {
    const v = state.approved;
    return { task: data.task, version: v.version, tools: v.tools, rule: v.rule, note: v.note, scores, run: v.run, createdAt: v.createdAt };
  }
  return { task: data.task, version: null, tools: state.proposal.tools, rule: state.proposal.rule, note: '', scores, ...(data.run ? { run: data.run } : {}) };
}

export function renderExport(store: ProjectStore, data: TaskData, format: ExportFormat, version?: number): ExportText {
  const space = exportableSpace(store, data, version);
  const out = exportSpace(format as SpaceExportFormat, space, { definitions: collectToolDefinitions(data.traces) });
  return { format, text: out.text, filename: out.filename, mime: out.mime, version: space.version };
}

export function renderReport(store: ProjectStore, data: TaskData): { html: string; filename: string } {
  const space = exportableSpace(store, data);
  const ranking = buildRanking(data, space.tools.length);
  const budget = buildBudget(data, store.readSweep(data.task));
  const out = exportSpace('report', space, {
    report: {
      ranking: ranking.rows.map((r) => ({ tool: r.tool, mean: r.mean, n: r.n, lo: r.lo, hi: r.hi, ...(r.topKShare !== null ? { topKShare: r.topKShare } : {}) })),
      budget: budget.points.map((p) => ({ k: p.k, accuracy: p.accuracy, surrogate: p.surrogate })),
      chosenK: space.tools.length,
      requests: ranking.requests,
      generatedAt: new Date().toISOString(),
    },
  });
  return { html: out.text, filename: out.filename };
}

export function writeText(path: string, text: string): { path: string } {
  writeFileSync(path, text);
  return { path };
}
