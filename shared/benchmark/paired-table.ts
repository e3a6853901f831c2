// LOTS against each baseline on the same evaluation requests, per family and pooled: the accuracy
// difference with its family-stratified paired bootstrap interval and McNemar's exact p (paired.ts),
// and the prompt tokens LOTS saves per request, as `lots demo` and `lots evaluate` print them under the
// comparison table. Requests are paired by trace id; a family whose results were measured before
// per-request outcomes were kept is named, not guessed.
import type { BaselineResult } from '../project/sweeps';
import { alignColumns, TABLE_COLUMNS, type ComparisonRow } from './comparison-table';
import {
  DEFAULT_MIN_FOR_INTERVAL,
  DEFAULT_PAIRED_RESAMPLES,
  pClause,
  formatSigned as signed,
  pairedComparison,
  type PairedComparison,
  type PairedDifference,
  type PairedOutcome,
} from './paired';

export interface PairedAgainst {
  baseline: string;
  accuracy: PairedComparison;
  /** LOTS's prompt tokens minus the baseline's, per request (negative: LOTS sends fewer). */
  tokens: PairedComparison;
}

export interface PairedTable {
  against: PairedAgainst[];
  /** Families left out: no per-request outcomes recorded for LOTS or a baseline. */
  missing: string[];
}

/** Pair LOTS with every other method of the table on each family's evaluation requests. */
export function pairedTable(rows: readonly ComparisonRow[], options: { seed?: number } = {}): PairedTable {
  const missing = new Set<string>();
  const against = TABLE_COLUMNS.filter((c) => c !== 'lots').flatMap((baseline) => {
    const accuracy: PairedOutcome[] = [];
    const tokens: PairedOutcome[] = [];
    for (const row of rows) {
      const lots = row.results.get('lots')?.eval;
      const other = row.results.get(baseline)?.eval;
      if (!other) continue;
      const pairs = pairOutcomes(lots, other);
      if (!pairs) {
        missing.add(row.task);
        continue;
      }
      for (const [a, b] of pairs) {
        accuracy.push({ stratum: row.task, a: a.correct, b: b.correct });
        tokens.push({ stratum: row.task, a: a.promptTokens, b: b.promptTokens });
      }
    }
    if (accuracy.length === 0) return [];
    return [{ baseline, accuracy: pairedComparison(accuracy, options), tokens: pairedComparison(tokens, options) }];
  });
  return { against, missing: [...missing].sort() };
}

type Outcome = NonNullable<BaselineResult['outcomes']>[number];

/** Two results' outcomes paired by request (trace id); undefined when either kept none or none pair. */
export function pairOutcomes(a: BaselineResult | undefined, b: BaselineResult): [Outcome, Outcome][] | undefined {
  if (!a?.outcomes || !b.outcomes) return undefined;
  const byRequest = new Map(b.outcomes.map((o) => [o.request, o]));
  const pairs = a.outcomes.flatMap((o): [Outcome, Outcome][] => {
    const other = byRequest.get(o.request);
    return other ? [[o, other]] : [];
  });
  return pairs.length > 0 ? pairs : undefined;
}

/** The plain-text block: a row per family and the pooled row, a column per baseline, then the tokens. */
export function formatPairedTable(table: PairedTable): string {
  if (table.against.length === 0) {
    return table.missing.length
      ? `paired statistics: no per-request outcomes recorded for ${table.missing.join(', ')} (measured before they were kept; evaluate again to get them)`
      : '';
  }
  const families = table.against[0]!.accuracy.families.map((f) => f.stratum);
  const cell = (d: PairedDifference | undefined) => {
    if (!d) return '–';
    const interval = d.interval ? ` [${signed(d.interval.lo)}, ${signed(d.interval.hi)}]` : '';
    return `${signed(d.difference)}${interval}${d.p !== undefined ? ` ${pClause(d.p)}` : ''}`;
  };
  const header = ['LOTS − …', ...table.against.map((a) => a.baseline)];
  const body = families.map((family) => [family, ...table.against.map((a) => cell(a.accuracy.families.find((f) => f.stratum === family)?.result))]);
  body.push(['pooled', ...table.against.map((a) => cell(a.accuracy.pooled))]);
  const pooledN = table.against[0]!.accuracy.pooled.n;
  const smallest = Math.min(...table.against[0]!.accuracy.families.map((f) => f.result.n));
  const lines = [
    `LOTS minus each baseline on the evaluation requests: accuracy difference, 95% family-stratified paired bootstrap interval (${DEFAULT_PAIRED_RESAMPLES.toLocaleString('en-US')} resamples), McNemar exact p where every outcome is 0 or 1 (Random's is its share of draws right)`,
    ...alignColumns([header, ...body], { rule: true }),
  ];
  if (smallest < DEFAULT_MIN_FOR_INTERVAL) {
    lines.push(
      `no interval where a family has fewer than ${DEFAULT_MIN_FOR_INTERVAL} requests (here ${smallest === pooledN ? pooledN : `as few as ${smallest}`}); the pooled row is over all ${pooledN}, each family weighing the same`,
    );
  }
  const flat = table.against.flatMap((a) => a.accuracy.families.map((f) => f.result)).filter((d) => d.interval && d.interval.lo === d.interval.hi);
  if (flat.length > 0) {
    lines.push(
      `${flat.length} per-family ${flat.length === 1 ? 'interval has' : 'intervals have'} zero width: every request of that family has the same paired difference (e.g. both methods wrong on all of them), so no resample can move it`,
    );
  }
  const keepAll = table.against.find((a) => a.baseline === 'keep-all');
  if (keepAll) {
    const t = keepAll.tokens.pooled;
    const interval = t.interval ? ` [${signed(t.interval.lo, 0)}, ${signed(t.interval.hi, 0)}]` : '';
    lines.push(`prompt tokens per request, LOTS − keep-all, pooled: ${signed(t.difference, 0)}${interval}`);
  }
  if (table.missing.length) lines.push(`left out (no per-request outcomes recorded): ${table.missing.join(', ')}`);
  return lines.join('\n');
}
