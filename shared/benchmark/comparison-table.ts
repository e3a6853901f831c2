// The per-task comparison table of `lots evaluate` and `lots demo`: kept tools, K, and fitting /
// evaluation accuracy of LOTS against the baselines, with prompt tokens per request.
import { sweepWithoutEvidence } from '../lots/budget';
import type { BaselineResult, SweepResult } from '../project/sweeps';
import { FIXED_K_BASELINES, isFixedK, SELECTION_METHOD_IDS } from '../selection/registry';
import { formatFixed } from '../text';

export interface ComparisonRow {
  task: string;
  k: number;
  space: string[];
  /** True where no K of the sweep answered a fitting request right: K is the rule's default, not evidence. */
  kByDefault?: boolean;
  /** name → split → result */
  results: Map<string, Partial<Record<'fit' | 'eval', BaselineResult>>>;
}

/** One column per selection method, in the registry's order, but for Table 9's fixed-K rankings: those are
 * compared with LOTS at their own K in a table of their own (fixed-k-table.ts), not with LOTS at its
 * label-chosen K, and as columns here they would double the table's width. */
export const TABLE_COLUMNS = SELECTION_METHOD_IDS.filter((id) => !isFixedK(id));

/** The columns some row has a result for, in the order of `columns` (LOTS and keep-all always). */
export function presentColumns(rows: readonly ComparisonRow[], columns: readonly string[] = TABLE_COLUMNS): string[] {
  return columns.filter((c) => c === 'lots' || c === 'keep-all' || rows.some((r) => r.results.has(c)));
}

export function comparisonRow(sweep: SweepResult): ComparisonRow | undefined {
  if (sweep.bestK === undefined) return undefined;
  const results = new Map<string, Partial<Record<'fit' | 'eval', BaselineResult>>>();
  for (const b of sweep.baselines) {
    const entry = results.get(b.name) ?? {};
    entry[b.split ?? 'eval'] = b;
    results.set(b.name, entry);
  }
  const point = sweep.points.find((p) => p.k === sweep.bestK);
  return { task: sweep.task, k: sweep.bestK, space: point?.tools ?? [], ...(sweepWithoutEvidence(sweep.points) ? { kByDefault: true } : {}), results };
}

/** Plain-text table: one row per task, accuracy cells as fit/eval, Random with ± its std over draws. */
export function formatComparisonTable(rows: readonly ComparisonRow[]): string {
  const columns = presentColumns(rows);
  const header = ['task', 'K', 'kept tools', ...columns.map((c) => `${c} fit/eval`), 'prompt tok lots/all'];
  const body = rows.map((r) => {
    const cell = (name: string) => {
      const e = r.results.get(name);
      if (!e) return '–';
      const acc = (b: BaselineResult | undefined) => (b ? formatFixed(b.accuracy) : '–');
      const std = e.eval?.accuracyStd !== undefined ? `±${formatFixed(e.eval.accuracyStd)}` : '';
      return `${acc(e.fit)}/${acc(e.eval)}${std}`;
    };
    const tokens = (name: string) => {
      const e = r.results.get(name);
      const b = e?.eval ?? e?.fit;
      return b ? Math.round(b.promptTokens).toString() : '–';
    };
    return [r.task, `${r.k}${r.kByDefault ? '*' : ''}`, r.space.join(', ') || '(none)', ...columns.map(cell), `${tokens('lots')}/${tokens('keep-all')}`];
  });
  if (rows.length > 1) body.push(meanRow(rows, columns));
  const fixedK = FIXED_K_BASELINES.filter((c) => rows.some((r) => r.results.has(c)));
  const elsewhere = fixedK.length ? [`(${fixedK.join(', ')}: in the fixed-K table below, beside LOTS at the same K)`] : [];
  const byDefault = rows.some((r) => r.kByDefault) ? [`* no K answered a fitting request right: K is the rule's default (the smallest), not evidence`] : [];
  return [...alignColumns([header, ...body], { rule: true }), ...byDefault, ...elsewhere].join('\n');
}

/** Rows of cells as lines of left-aligned columns two spaces apart (the first row is the header; `rule`
 * draws dashes under it). Every plain-text table of the CLI goes through here. */
export function alignColumns(rows: readonly (readonly string[])[], options: { rule?: boolean } = {}): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const lines = rows.map(line);
  if (options.rule && lines.length > 0) lines.splice(1, 0, line(widths.map((w) => '-'.repeat(w))));
  return lines;
}

function meanRow(rows: readonly ComparisonRow[], columns: readonly string[]): string[] {
  const mean = (name: string, split: 'fit' | 'eval') => {
    const vals = rows.map((r) => r.results.get(name)?.[split]?.accuracy).filter((v): v is number => v !== undefined);
    return vals.length ? formatFixed(vals.reduce((a, b) => a + b, 0) / vals.length) : '–';
  };
  const tokens = (name: string) => {
    const vals = rows.map((r) => r.results.get(name)?.eval?.promptTokens).filter((v): v is number => v !== undefined);
    return vals.length ? Math.round(vals.reduce((a, b) => a + b, 0) / vals.length).toString() : '–';
  };
  const k = rows.reduce((a, r) => a + r.space.length, 0) / rows.length;
  return ['mean', k.toFixed(1), '', ...columns.map((c) => `${mean(c, 'fit')}/${mean(c, 'eval')}`), `${tokens('lots')}/${tokens('keep-all')}`];
}

/** What each method said about how it chose, per task (a search's stop, a router's
 * unreadable replies, BM25's ties at the budget), as lines under the tables; none when no method left a note. */
export function methodNotes(rows: readonly ComparisonRow[], labels: Readonly<Record<string, string>> = {}): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    for (const name of SELECTION_METHOD_IDS) {
      const entry = row.results.get(name);
      const note = entry?.eval?.note ?? entry?.fit?.note;
      if (note) lines.push(`  ${row.task} · ${labels[name] ?? name}: ${note}`);
    }
  }
  return lines.length ? ['', 'how each method chose, where it has something to say:', ...lines] : [];
}
