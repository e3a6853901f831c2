// The Demo view's data: the demo record (how it was run, registry growth) and, per task, the LOTS space
// next to the family's gold chain with every method's fitting and evaluation results, read from the
// project's sweeps.
import { FAMILIES } from '../../../shared/benchmark/families/index';
import { isFamilyName } from '../../../shared/benchmark/family';
import { comparisonRow, type ComparisonRow } from '../../../shared/benchmark/comparison-table';
import { costTable } from '../../../shared/benchmark/cost-table';
import { deferredTable, type DeferredFamily } from '../../../shared/benchmark/deferred-table';
import { fixedKTable } from '../../../shared/benchmark/fixed-k-table';
import { pairedTable } from '../../../shared/benchmark/paired-table';
import type { DemoCell, DemoData, DemoDifference, DemoTask } from '../../../shared/api/types';
import type { BaselineResult } from '../../../shared/project/sweeps';
import { SELECTION_METHOD_IDS } from '../../../shared/selection/registry';
import type { ReadOnlyProjectStore } from '../store';

export function buildDemoData(store: ReadOnlyProjectStore): DemoData {
  const tasks: DemoTask[] = [];
  const rows: ComparisonRow[] = [];
  for (const sweep of store.listSweeps().sort((a, b) => (a.task < b.task ? -1 : 1))) {
    const row = comparisonRow(sweep);
    if (!row) continue;
    rows.push(row);
    const methods: DemoTask['methods'] = {};
    for (const [name, splits] of row.results) {
      methods[name] = { ...(splits.fit ? { fit: cell(splits.fit) } : {}), ...(splits.eval ? { eval: cell(splits.eval) } : {}) };
    }
    const chain = isFamilyName(row.task) ? [...FAMILIES[row.task].chainTools] : [];
    tasks.push({ task: row.task, k: row.k, kept: row.space, ...(row.kByDefault ? { kByDefault: true } : {}), chain, methods });
  }
  const present = new Set(tasks.flatMap((t) => Object.keys(t.methods)));
  const methods = [
    ...SELECTION_METHOD_IDS.filter((m) => present.has(m)),
    ...[...present].filter((m) => !(SELECTION_METHOD_IDS as readonly string[]).includes(m)).sort(),
  ];
  const mean: DemoData['mean'] = {};
  for (const m of methods) {
    const entry: DemoData['mean'][string] = {};
    for (const split of ['fit', 'eval'] as const) {
      const cells = tasks.map((t) => t.methods[m]?.[split]).filter((c): c is DemoCell => c !== undefined);
      if (cells.length === 0) continue;
      entry[split] = {
        accuracy: avg(cells.map((c) => c.accuracy)),
        n: cells.reduce((a, c) => a + c.n, 0),
        promptTokens: avg(cells.map((c) => c.promptTokens)),
      };
    }
    mean[m] = entry;
  }
  const paired = pairedTable(rows);
  const cost = costTable(rows);
  const differences = disagreements(store, rows);
  const deferred = deferredTable(rows);
  const fixedK = fixedKTable(rows);
  const sum = (g: (f: DeferredFamily) => number) => deferred?.families.reduce((a, f) => a + g(f), 0) ?? 0;
  return {
    record: store.readDemo() ?? null,
    methods,
    tasks,
    mean,
    ...(paired.against.length || paired.missing.length ? { paired } : {}),
    ...(cost.some((c) => c.per !== 'none') ? { cost } : {}),
    ...(differences.length > 0 ? { differences } : {}),
    ...(deferred ? { deferredCalls: { asked: sum((f) => f.asked), n: sum((f) => f.n), rightAfterAsking: sum((f) => f.rightAfterAsking) } } : {}),
    ...(fixedK ? { fixedK } : {}),
  };
}

/**
 * The evaluation requests where LOTS and keep-all disagree (issue 40: show the difference, not only its
 * size): one entry per request one method answered right and the other wrong, with its text.
 */
function disagreements(store: ReadOnlyProjectStore, rows: readonly ComparisonRow[]): DemoDifference[] {
  const out: DemoDifference[] = [];
  for (const row of rows) {
    const lots = row.results.get('lots')?.eval?.outcomes;
    const all = row.results.get('keep-all')?.eval?.outcomes;
    if (!lots || !all) continue;
    const byRequest = new Map(all.map((o) => [o.request, o]));
    for (const l of lots) {
      const a = byRequest.get(l.request);
      if (!a || l.correct >= 0.5 === a.correct >= 0.5) continue;
      const text = store.getTrace(l.request)?.turns[0]?.request;
      out.push({
        task: row.task,
        request: l.request,
        ...(text !== undefined ? { text: text.length > 240 ? `${text.slice(0, 239)}…` : text } : {}),
        lotsRight: l.correct >= 0.5,
        lotsTokens: l.promptTokens,
        allTokens: a.promptTokens,
      });
    }
  }
  return out;
}

function cell(b: BaselineResult): DemoCell {
  return { accuracy: b.accuracy, n: b.n, promptTokens: b.promptTokens, ...(b.accuracyStd !== undefined ? { accuracyStd: b.accuracyStd } : {}) };
}

function avg(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
