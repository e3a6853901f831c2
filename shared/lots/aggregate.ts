// Task aggregation (paper eq. 3, Appendix B.3): Ī_t(s) is the mean of I_x(s) over Q_t(s), the requests of
// task t on which s was exposed AND scored. A request that did not expose s is left out of the mean; it is
// never counted as a zero. A_t (the eligible tools) are those with |Q_t(s)| > 0.
import type { ScoreRow } from '../project/scores';
import { fsum } from './fsum';

/** Rows without a task label are aggregated under this name until routing assigns them a task. The
 * parentheses keep it from colliding with a real task label in practice and make it visibly a placeholder. */
export const UNROUTED = '(unrouted)';

/** Evidence for one tool in one task. */
export interface ToolScoreStats {
  tool: string;
  /** Ī_t(s): the mean over Q_t(s), summed exactly so it does not depend on row order. */
  mean: number;
  /** |Q_t(s)|: the requests that scored s. */
  n: number;
  /** I_x(s) for each x in Q_t(s), in row order. */
  values: number[];
  /** Requests of the task that exposed s (≥ n). */
  exposed: number;
}

export interface TaskScores {
  task: string;
  /** Requests (score rows) of the task. */
  requests: number;
  /** Tools with evidence (A_t), sorted by name. Rank them with rankTools. */
  tools: ToolScoreStats[];
  /** Every tool exposed on at least one request of the task, with the number of requests that exposed it, sorted by name. */
  exposure: { tool: string; requests: number }[];
  /** Exposed on some request but never scored: not eligible, never added to a space. */
  unscored: string[];
}

/** The task a row is aggregated under. */
export function taskOf(row: Pick<ScoreRow, 'task'>): string {
  return row.task ?? UNROUTED;
}

export function groupRowsByTask<R extends Pick<ScoreRow, 'task'>>(rows: readonly R[]): Map<string, R[]> {
  const byTask = new Map<string, R[]>();
  for (const row of rows) {
    const task = taskOf(row);
    let list = byTask.get(task);
    if (!list) byTask.set(task, (list = []));
    list.push(row);
  }
  return byTask;
}

/**
 * A score for a tool the row does not list in `exposed` is a data error: the import paths reject such
 * rows with this message (see checkScoreRow). Aggregation itself treats a scored tool as exposed, since a
 * score can only come from a tool that was served.
 */
export function checkScoreRow(row: ScoreRow): string | null {
  const exposed = new Set(row.exposed);
  const stray = Object.keys(row.scores).filter((tool) => !exposed.has(tool));
  if (stray.length === 0) return null;
  const names = stray.map((t) => `"${t}"`).join(', ');
  return (
    `scores: ${names} ${stray.length === 1 ? 'has a score but is' : 'have scores but are'} not listed in "exposed"; ` +
    `"exposed" must list every tool the request was served with (add ${stray.length === 1 ? 'it' : 'them'}, or drop the score)`
  );
}

/** Aggregate score rows per task. Tasks come out sorted by name. */
export function aggregateTaskScores(rows: readonly ScoreRow[]): TaskScores[] {
  const out: TaskScores[] = [];
  for (const [task, taskRows] of groupRowsByTask(rows)) out.push(aggregateOneTask(task, taskRows));
  return out.sort((a, b) => compareNames(a.task, b.task));
}

export function aggregateOneTask(task: string, rows: readonly ScoreRow[]): TaskScores {
  // One entry per tool; `lastRow` counts a tool listed twice on one request (or scored and listed) once.
  const byTool = new Map<string, { values: number[]; exposed: number; lastRow: number }>();
  const entry = (tool: string) => {
    let e = byTool.get(tool);
    if (!e) byTool.set(tool, (e = { values: [], exposed: 0, lastRow: -1 }));
    return e;
  };
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (const tool of row.exposed) {
      const e = entry(tool);
      if (e.lastRow !== r) {
        e.lastRow = r;
        e.exposed++;
      }
    }
    for (const tool in row.scores) {
      if (!Object.hasOwn(row.scores, tool)) continue;
      const e = entry(tool);
      if (e.lastRow !== r) {
        e.lastRow = r;
        e.exposed++;
      }
      e.values.push(row.scores[tool]!);
    }
  }
  const tools: ToolScoreStats[] = [];
  const exposure: { tool: string; requests: number }[] = [];
  const unscored: string[] = [];
  for (const tool of [...byTool.keys()].sort(compareNames)) {
    const e = byTool.get(tool)!;
    exposure.push({ tool, requests: e.exposed });
    if (e.values.length === 0) unscored.push(tool);
    else tools.push({ tool, mean: fsum(e.values) / e.values.length, n: e.values.length, values: e.values, exposed: e.exposed });
  }
  return { task, requests: rows.length, tools, exposure, unscored };
}

/** A_t: the tools with |Q_t(s)| > 0, sorted by name. */
export function eligibleTools(scores: TaskScores): string[] {
  return scores.tools.filter((t) => t.n > 0).map((t) => t.tool);
}

/** Code-unit order: the same on every machine and locale (localeCompare is not). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
