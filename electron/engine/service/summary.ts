// The project home: tasks with request counts, scoring status, space status and models; runs; activity.
import type { ProjectSummary, RunInfo, TaskSummary } from '../../../shared/api/types';
import type { ProjectStore } from '../store';
import { correctness } from './heatmap';
import { changedSince } from './spaces';
import type { ProjectIndex } from './task-data';

export function buildSummary(store: ProjectStore, index: ProjectIndex): ProjectSummary {
  index.sync();
  const runs = new Map<string, RunInfo>();
  for (const row of store.listScores()) {
    let info = runs.get(row.run);
    if (!info) {
      info = { run: row.run, rows: 0, ...(row.modelName ?? row.model ? { model: row.modelName ?? row.model } : {}), ...(row.intervention ? { intervention: row.intervention } : {}), ...(row.span ? { span: row.span } : {}) };
      runs.set(row.run, info);
    }
    info.rows++;
    if (row.createdAt && (!info.lastAt || row.createdAt > info.lastAt)) info.lastAt = row.createdAt;
  }
  const swept = new Set(store.listSweeps().map((s) => s.task));
  const tasks: TaskSummary[] = index.tasks().map((task) => {
    const data = index.task(task);
    let correct = 0;
    let wrong = 0;
    for (const t of data.traces) {
      const c = correctness(t);
      if (c === true) correct++;
      else if (c === false) wrong++;
    }
    const versions = store.readSpaces(task).versions;
    const approved = versions.at(-1) ?? null;
    const status = approved ? (changedSince(approved, data) ? 'changed' : 'approved') : data.rows.length > 0 ? 'proposed' : 'none';
    const models = [...new Set(index.runsOf(task).map((r) => runs.get(r)?.model).filter((m): m is string => Boolean(m)))];
    return {
      task,
      requests: Math.max(data.traces.length, data.rows.length),
      scored: data.rows.length,
      tools: data.menu.size,
      eligible: data.fit?.ranking.length ?? 0,
      correct,
      wrong,
      unlabeled: data.traces.length - correct - wrong,
      space: approved ? { status, version: approved.version, size: approved.tools.length, approvedAt: approved.createdAt } : { status },
      models,
      ...(data.run ? { latestRun: data.run } : {}),
      runs: index.runsOf(task),
      swept: swept.has(task),
    };
  });
  return {
    dir: store.dir,
    name: store.info.name,
    createdAt: store.info.createdAt,
    traces: store.traceCount,
    tasks,
    runs: [...runs.values()],
    models: [...new Set([...runs.values()].map((r) => r.model).filter((m): m is string => Boolean(m)))],
    activity: store.listActivity(30).map((a) => ({ at: a.at, kind: a.kind, message: a.message })),
    warnings: store.warnings.map((w) => `${w.file}: ${w.message}`),
  };
}
