// The project home: tasks with request counts, scoring status, space status and models; runs; activity.
import type { ProjectSummary, RunInfo, TaskSummary } from '../../../shared/api/types';
import type { ReadOnlyProjectStore } from '../store';
import { changedSince } from './spaces';
import type { ProjectIndex } from '../read-model/project-index';
import { approvedSpace } from '../read-model/approved-space';
import { ExpectedError } from '../../../shared/api/errors';

export function buildSummary(store: ReadOnlyProjectStore, index: ProjectIndex): ProjectSummary {
  index.sync();
  // A damaged spaces or sweeps file must not keep the whole project from opening: it is listed as a
  // warning naming the file (the views that need it say so again when they are opened).
  const damaged: string[] = [];
  const tolerant = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof ExpectedError && e.code === 'PROJECT_FILE_DAMAGED')) throw e;
      if (!damaged.includes(e.message)) damaged.push(e.message);
      return fallback;
    }
  };
  const runs = new Map<string, RunInfo>();
  for (const row of store.listScores()) {
    let info = runs.get(row.run);
    if (!info) {
      info = {
        run: row.run,
        rows: 0,
        ...((row.modelName ?? row.model) ? { model: row.modelName ?? row.model } : {}),
        ...(row.intervention ? { intervention: row.intervention } : {}),
        ...(row.span ? { span: row.span } : {}),
      };
      runs.set(row.run, info);
    }
    info.rows++;
    if (row.createdAt && (!info.lastAt || row.createdAt > info.lastAt)) info.lastAt = row.createdAt;
  }
  const swept = new Set(tolerant(() => store.listSweeps(), []).map((s) => s.task));
  const tasks: TaskSummary[] = index.tasks().map((task) => {
    const data = index.task(task);
    const { correct, wrong } = data;
    const approved = tolerant(() => approvedSpace(store, task), null);
    const status = approved ? (changedSince(approved, data) ? 'changed' : 'approved') : data.rows.length > 0 ? 'proposed' : 'none';
    const models = [
      ...new Set(
        index
          .runsOf(task)
          .map((r) => runs.get(r)?.model)
          .filter((m): m is string => Boolean(m)),
      ),
    ];
    return {
      task,
      requests: Math.max(data.requests, data.rows.length),
      scored: data.rows.length,
      tools: data.menu.size,
      eligible: data.fit?.ranking.length ?? 0,
      correct,
      wrong,
      unlabeled: data.requests - correct - wrong,
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
    warnings: [...store.warnings.map((w) => `${w.file}: ${w.message}`), ...damaged],
  };
}
