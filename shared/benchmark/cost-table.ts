// The cost of selection (paper Table 20, eq. 17), from the stored comparison: per method, the model tokens
// spent choosing (per fit: once per task, summed over the tasks' fits; per request: again for every request), the serving prompt
// tokens per evaluation request under its space and under the full menu, and the break-even number of
// served requests N = C_fit / (c_full − c_space) after which a per-fit selection has paid for itself.
import type { BaselineResult } from '../project/sweeps';
import { SELECTION_METHOD_IDS } from '../selection/registry';
import { alignColumns, presentColumns, type ComparisonRow } from './comparison-table';

export interface CostRow {
  method: string;
  per: 'fit' | 'request' | 'none';
  /** Selection prompt tokens: summed over tasks (per fit) or per request (per request). */
  selectionTokens: number;
  /** Mean serving prompt tokens per evaluation request under the method's space(s). */
  servingTokens: number;
  /** The same under the full menu (keep-all). */
  fullTokens: number;
  /** Served requests after which the selection has paid for itself; undefined when it never does (or costs nothing). */
  breakEven: number | undefined;
  /** Selection wall time over the tasks, where it was measured. */
  seconds?: number;
  tasks: number;
}

function selectionOf(entry: Partial<Record<'fit' | 'eval', BaselineResult>>): BaselineResult['selection'] {
  return entry.eval?.selection ?? entry.fit?.selection;
}

export function costTable(rows: readonly ComparisonRow[]): CostRow[] {
  const out: CostRow[] = [];
  // Every method that chose, the fixed-K rankings too: what choosing cost does not depend on the table.
  for (const method of presentColumns(rows, SELECTION_METHOD_IDS)) {
    let selectionTokens = 0;
    let calls = 0;
    let seconds = 0;
    let per: CostRow['per'] = 'none';
    const serving: number[] = [];
    const full: number[] = [];
    let tasks = 0;
    let timed = false;
    for (const row of rows) {
      const entry = row.results.get(method);
      const mine = entry?.eval;
      const all = row.results.get('keep-all')?.eval;
      if (!entry || !mine || !all) continue;
      tasks++;
      for (let i = 0; i < mine.n; i++) serving.push(mine.promptTokens);
      for (let i = 0; i < all.n; i++) full.push(all.promptTokens);
      const s = selectionOf(entry);
      if (!s) continue;
      per = s.per;
      selectionTokens += s.promptTokens;
      calls += s.per === 'request' ? s.calls : 0;
      if (s.seconds !== undefined) {
        seconds += s.seconds;
        timed = true;
      }
    }
    if (tasks === 0) continue;
    const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const servingTokens = mean(serving);
    const fullTokens = mean(full);
    const perRequest = per === 'request' && calls > 0 ? selectionTokens / calls : 0;
    const saved = fullTokens - servingTokens - perRequest;
    const breakEven = per === 'fit' && saved > 0 ? selectionTokens / saved : undefined;
    out.push({
      method,
      per,
      selectionTokens: per === 'request' ? perRequest : selectionTokens,
      servingTokens,
      fullTokens,
      breakEven,
      ...(timed ? { seconds } : {}),
      tasks,
    });
  }
  return out;
}

/** A row's cells as both the CLI table and the Demo view's HTML print them: `brief` gives the short
 * "never" and the em dash the HTML uses, else the CLI's reasons and en dash. */
export function costCells(r: CostRow, options: { brief?: boolean } = {}): { selection: string; payback: string; time: string } {
  const none = options.brief ? '—' : '–';
  const selection =
    r.per === 'none'
      ? '0'
      : r.per === 'request'
        ? `${thousands(r.selectionTokens)} per request`
        : `${thousands(r.selectionTokens)} in ${r.tasks} ${r.tasks === 1 ? 'fit' : 'fits'}`;
  let payback: string;
  if (r.per === 'none') payback = none;
  else if (r.per === 'request') {
    const pays = r.fullTokens - r.servingTokens - r.selectionTokens > 0;
    payback = options.brief ? (pays ? 'at once' : 'never') : pays ? 'at once (paid per request)' : 'never (choosing costs more per request than it saves)';
  } else if (r.breakEven === undefined) payback = options.brief ? 'never' : 'never (serves no fewer tokens)';
  else payback = plural(Math.ceil(r.breakEven), 'request');
  return { selection, payback, time: r.seconds === undefined ? none : seconds(r.seconds) };
}

export function formatCostTable(table: readonly CostRow[], labels: Readonly<Record<string, string>> = {}): string {
  if (!table.some((r) => r.per !== 'none')) return '';
  const header = ['method', 'tasks', 'selection tokens', 'serving tok/request', 'full menu tok/request', 'pays back after', 'selection time'];
  const body = table.map((r) => {
    const { selection, payback, time } = costCells(r);
    return [labels[r.method] ?? r.method, String(r.tasks), selection, thousands(r.servingTokens), thousands(r.fullTokens), payback, time];
  });
  return [
    `cost of selection (prompt tokens the model read to choose; serving is per evaluation request, over ${plural(Math.max(...table.map((r) => r.tasks)), 'task')}):`,
    ...alignColumns([header, ...body], { rule: true }),
  ].join('\n');
}

function plural(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? '' : 's'}`;
}

export function thousands(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

function seconds(s: number): string {
  return s < 120 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;
}
