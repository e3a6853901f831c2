// The pinned + deferred row read against top-K only and keep-all (issue 44: the paper's documentation
// demotion against its pruning, on the built-in benchmark): per family, how many evaluation requests asked
// for a deferred tool, how many of those were then right, which tools they asked for, and the paired
// accuracy difference against LOTS's top-K only and against keep-all, with the same family-stratified
// bootstrap and McNemar test as the paired table. Printed by `lots evaluate` and `lots demo` when the run
// has the row.
import type { BaselineResult } from '../project/sweeps';
import { alignColumns, type ComparisonRow } from './comparison-table';
import { pairOutcomes } from './paired-table';
import { DEFAULT_PAIRED_RESAMPLES, formatSigned, pairedComparison, pClause, type PairedDifference, type PairedOutcome } from './paired';

export const DEFERRED_ROW = 'lots-deferred';

export interface DeferredFamily {
  task: string;
  /** Evaluation requests served pinned + deferred. */
  n: number;
  /** Of them, those that asked for a deferred tool before answering. */
  asked: number;
  /** Of those, the ones answered right. */
  rightAfterAsking: number;
  /** Each tool asked for, with how many requests asked for it. */
  tools: Map<string, number>;
  /** Mean prompt tokens per request: pinned + deferred, top-K only, keep-all. */
  promptTokens: { deferred: number; topK?: number; keepAll?: number };
}

export interface DeferredTable {
  families: DeferredFamily[];
  /** Pinned + deferred minus top-K only (LOTS), and minus keep-all. */
  againstTopK?: ReturnType<typeof pairedComparison>;
  againstKeepAll?: ReturnType<typeof pairedComparison>;
}

function pairs(a: BaselineResult | undefined, b: BaselineResult | undefined, task: string): PairedOutcome[] {
  return (b && pairOutcomes(a, b))?.map(([x, y]) => ({ stratum: task, a: x.correct, b: y.correct })) ?? [];
}

/** The table, or undefined when no row of the run has pinned + deferred results with their outcomes. */
export function deferredTable(rows: readonly ComparisonRow[], options: { seed?: number } = {}): DeferredTable | undefined {
  const families: DeferredFamily[] = [];
  const topK: PairedOutcome[] = [];
  const keepAll: PairedOutcome[] = [];
  for (const row of rows) {
    const deferred = row.results.get(DEFERRED_ROW)?.eval;
    if (!deferred?.outcomes) continue;
    const tools = new Map<string, number>();
    let asked = 0;
    let right = 0;
    for (const o of deferred.outcomes) {
      if (!o.called?.length) continue;
      asked++;
      right += o.correct;
      for (const t of o.called) tools.set(t, (tools.get(t) ?? 0) + 1);
    }
    const lots = row.results.get('lots')?.eval;
    const all = row.results.get('keep-all')?.eval;
    families.push({
      task: row.task,
      n: deferred.outcomes.length,
      asked,
      rightAfterAsking: right,
      tools,
      promptTokens: { deferred: deferred.promptTokens, ...(lots ? { topK: lots.promptTokens } : {}), ...(all ? { keepAll: all.promptTokens } : {}) },
    });
    topK.push(...pairs(deferred, lots, row.task));
    keepAll.push(...pairs(deferred, all, row.task));
  }
  if (families.length === 0) return undefined;
  return {
    families,
    ...(topK.length ? { againstTopK: pairedComparison(topK, options) } : {}),
    ...(keepAll.length ? { againstKeepAll: pairedComparison(keepAll, options) } : {}),
  };
}

function cell(d: PairedDifference | undefined): string {
  if (!d) return '–';
  const interval = d.interval ? ` [${formatSigned(d.interval.lo)}, ${formatSigned(d.interval.hi)}]` : '';
  return `${formatSigned(d.difference)}${interval}${d.p !== undefined ? ` ${pClause(d.p)}` : ''}`;
}

export function formatDeferredTable(table: DeferredTable): string {
  const find = (c: ReturnType<typeof pairedComparison> | undefined, task: string) => c?.families.find((f) => f.stratum === task)?.result;
  const toolsText = (m: Map<string, number>) =>
    m.size === 0
      ? '–'
      : [...m]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([t, n]) => `${t} ×${n}`)
          .join(', ');
  const tokens = (f: DeferredFamily) =>
    `${Math.round(f.promptTokens.deferred)}/${f.promptTokens.topK !== undefined ? Math.round(f.promptTokens.topK) : '–'}/${f.promptTokens.keepAll !== undefined ? Math.round(f.promptTokens.keepAll) : '–'}`;
  const header = ['task', 'asked', 'right after asking', 'tools asked for', '− top-K only', '− keep-all', 'prompt tok deferred/top-K/all'];
  const body = table.families.map((f) => [
    f.task,
    `${f.asked}/${f.n}`,
    f.asked ? String(f.rightAfterAsking) : '–',
    toolsText(f.tools),
    cell(find(table.againstTopK, f.task)),
    cell(find(table.againstKeepAll, f.task)),
    tokens(f),
  ]);
  const sum = (g: (f: DeferredFamily) => number) => table.families.reduce((a, f) => a + g(f), 0);
  const mean = (g: (f: DeferredFamily) => number | undefined) => {
    const xs = table.families.map(g).filter((x): x is number => x !== undefined);
    return xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length).toString() : '–';
  };
  const pooledTools = new Map<string, number>();
  for (const f of table.families) for (const [t, n] of f.tools) pooledTools.set(t, (pooledTools.get(t) ?? 0) + n);
  body.push([
    'pooled',
    `${sum((f) => f.asked)}/${sum((f) => f.n)}`,
    sum((f) => f.asked) ? String(sum((f) => f.rightAfterAsking)) : '–',
    toolsText(pooledTools),
    cell(table.againstTopK?.pooled),
    cell(table.againstKeepAll?.pooled),
    `${mean((f) => f.promptTokens.deferred)}/${mean((f) => f.promptTokens.topK)}/${mean((f) => f.promptTokens.keepAll)}`,
  ]);
  return [
    `LOTS pinned + deferred on the evaluation requests: LOTS's space run, the task's other scored tools listed and run when the model replies "RUN: <Tool>" (one round); its accuracy minus top-K only (LOTS) and minus keep-all, 95% family-stratified paired bootstrap interval (${DEFAULT_PAIRED_RESAMPLES.toLocaleString('en-US')} resamples), McNemar exact p; prompt tokens count both rounds of a request that asked`,
    ...alignColumns([header, ...body], { rule: true }),
  ].join('\n');
}
