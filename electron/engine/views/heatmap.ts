// The attribution heatmap of a task: requests × tools, I_x(s) per cell, and which cells were not exposed
// (nothing to show: not a zero) or exposed without evidence (not scoreable).
import { encodeFloat32, encodeUint8 } from '../../../shared/api/matrix';
import { CELL_EXPOSED, CELL_SCORED, CELL_UNEXPOSED, type HeatmapData, type HeatmapRequest } from '../../../shared/api/types';
import type { Trace } from '../../../shared/trace/schema';
import { correctness } from '../../../shared/trace/correctness';
import { hasTarget } from '../../../shared/trace/target';
import type { TaskData } from '../read-model/project-index';

const REQUEST_TEXT_CHARS = 400;

export function buildHeatmap(data: TaskData): HeatmapData {
  const ranked = data.fit?.ranking.map((r) => r.tool) ?? [];
  const rankedSet = new Set(ranked);
  const rest = [...data.menu.keys()].filter((t) => !rankedSet.has(t)).sort();
  const tools = [...ranked, ...rest];
  const col = new Map(tools.map((t, i) => [t, i]));
  const means = tools.map((t) => data.fit?.ranking.find((r) => r.tool === t)?.mean ?? null);

  // Rows: every trace of the task, plus score rows whose trace is not in the project (imported scores).
  const traceIds = new Set(data.traces.map((t) => t.id));
  const orphanRows = data.rows.filter((r) => !traceIds.has(r.trace));
  const rowsCount = data.traces.length + orphanRows.length;
  const m = tools.length;
  const values = new Float32Array(rowsCount * m);
  const states = new Uint8Array(rowsCount * m).fill(CELL_UNEXPOSED);
  const requests: HeatmapRequest[] = [];
  let maxAbs = 0;

  const fill = (r: number, exposed: Iterable<string>, scores: Record<string, number> | undefined) => {
    const base = r * m;
    for (const name of exposed) {
      const c = col.get(name);
      if (c !== undefined) states[base + c] = CELL_EXPOSED;
    }
    if (!scores) return;
    for (const [name, v] of Object.entries(scores)) {
      const c = col.get(name);
      if (c === undefined) continue;
      values[base + c] = v;
      states[base + c] = CELL_SCORED;
      if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
    }
  };

  data.traces.forEach((trace, r) => {
    const row = data.rowByTrace.get(trace.id);
    fill(r, row?.exposed ?? trace.tools.map((t) => t.name), row?.scores);
    requests.push({ id: trace.id, text: requestText(trace), correct: correctness(trace), scoreable: trace.turns.some(hasTarget) });
  });
  orphanRows.forEach((row, i) => {
    fill(data.traces.length + i, row.exposed, row.scores);
    requests.push({ id: row.trace, text: '(trace not in this project: scores were imported)', correct: null });
  });

  return { task: data.task, run: data.run, tools, means, requests, values: encodeFloat32(values), states: encodeUint8(states), maxAbs };
}

function requestText(trace: Trace): string {
  const text = trace.turns.map((t) => t.request).join(' ⏎ ');
  return text.length > REQUEST_TEXT_CHARS ? text.slice(0, REQUEST_TEXT_CHARS - 1) + '…' : text;
}
