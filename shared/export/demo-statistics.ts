// The tables under the demo's comparison, as HTML the Demo view and the report both show: LOTS minus
// each baseline with its paired interval and McNemar p (shared/benchmark/paired-table.ts), the cost
// of selection (shared/benchmark/cost-table.ts), and the paper's Table 9 (shared/benchmark/fixed-k-table.ts). Plain <table> markup with a caller's class, no scripts.
import { costCells, thousands, type CostRow } from '../benchmark/cost-table';
import { formatP, formatSigned, pClause, type PairedDifference } from '../benchmark/paired';
import type { PairedTable } from '../benchmark/paired-table';
import { FIXED_KS, fixedKRowName, type FixedKTable } from '../benchmark/fixed-k-table';
import { DEFAULT_MIN_FOR_INTERVAL, DEFAULT_PAIRED_RESAMPLES } from '../benchmark/paired';
import { escapeHtml } from './html';
import { percent } from '../text';

function label(labels: Readonly<Record<string, string>>, id: string): string {
  return escapeHtml(labels[id] ?? id);
}

function differenceCell(d: PairedDifference | undefined): string {
  if (!d) return '<td class="num">—</td>';
  const interval = d.interval ? ` [${formatSigned(d.interval.lo)}, ${formatSigned(d.interval.hi)}]` : '';
  const p = d.p !== undefined ? ` <span class="muted">${escapeHtml(pClause(d.p))}</span>` : '';
  const excludesZero = d.interval && (d.interval.lo > 0 || d.interval.hi < 0);
  return `<td class="num${excludesZero ? ' strong' : ''}">${formatSigned(d.difference)}${interval}${p}</td>`;
}

/** LOTS − each baseline on the evaluation requests: a row per baseline with the pooled difference, its
 * interval, McNemar's p and the discordant pairs; the per-family table folded under it. '' without outcomes. */
export function pairedHtml(
  table: PairedTable | undefined,
  labels: Readonly<Record<string, string>>,
  className = '',
  options: { familiesOpen?: boolean } = {},
): string {
  if (!table || table.against.length === 0) return '';
  const families = table.against[0]!.accuracy.families.map((f) => f.stratum);
  const pooledRows = table.against
    .map((a) => {
      const d = a.accuracy.pooled;
      const excludesZero = d.interval && (d.interval.lo > 0 || d.interval.hi < 0);
      const interval = d.interval
        ? `[${formatSigned(d.interval.lo)}, ${formatSigned(d.interval.hi)}]`
        : `<span class="muted" title="${escapeHtml(d.tooFew ?? '')}">none (n = ${d.n})</span>`;
      const discordant = d.discordant ? `${d.discordant.aOnly} / ${d.discordant.bOnly}` : '—';
      const tokens = formatSigned(a.tokens.pooled.difference, 0);
      return `<tr><td>${label(labels, a.baseline)}</td><td class="num${excludesZero ? ' strong' : ''}">${formatSigned(d.difference)}</td><td class="num">${interval}</td><td class="num">${d.p !== undefined ? formatP(d.p) : '—'}</td><td class="num">${discordant}</td><td class="num">${tokens}</td></tr>`;
    })
    .join('');
  const head =
    '<tr><th>LOTS minus</th><th class="num">Accuracy difference</th><th class="num">95% interval</th><th class="num">McNemar p</th><th class="num">Only LOTS / only it right</th><th class="num">Prompt tokens / request</th></tr>';
  const familyHead = `<tr><th>Family</th>${table.against.map((a) => `<th class="num">${label(labels, a.baseline)}</th>`).join('')}</tr>`;
  const familyBody = families
    .map(
      (f) => `<tr><td>${escapeHtml(f)}</td>${table.against.map((a) => differenceCell(a.accuracy.families.find((x) => x.stratum === f)?.result)).join('')}</tr>`,
    )
    .join('');
  const n = table.against[0]!.accuracy.pooled.n;
  const smallest = Math.min(...table.against[0]!.accuracy.families.map((f) => f.result.n));
  const notes = [
    `On the same ${n} evaluation requests: the difference of the family means, a 95% family-stratified paired bootstrap interval (${DEFAULT_PAIRED_RESAMPLES.toLocaleString('en-US')} resamples), McNemar’s exact p on the discordant pairs (Random: its share of draws right, so no p). Bold: the interval excludes zero.`,
    ...(smallest < DEFAULT_MIN_FOR_INTERVAL
      ? [
          `No interval for a family with fewer than ${DEFAULT_MIN_FOR_INTERVAL} requests (here as few as ${smallest}): one request moves its cell by ${formatSigned(1 / smallest)}.`,
        ]
      : []),
    ...(table.missing.length ? [`Left out (measured before per-request outcomes were kept): ${table.missing.map(escapeHtml).join(', ')}.`] : []),
  ];
  return (
    `<table class="${className}" data-testid="demo-paired"><thead>${head}</thead><tbody>${pooledRows}</tbody></table>` +
    `<p class="small muted">${notes.join(' ')}</p>` +
    `<details${options.familiesOpen ? ' open' : ''}><summary>Per family</summary><div class="table-scroll"><table class="${className}" data-testid="demo-paired-families"><thead>${familyHead}</thead><tbody>${familyBody}</tbody></table></div></details>`
  );
}

/** Per method: selection tokens, serving tokens per request with its space and with the full menu, break-even N. */
export function costHtml(rows: readonly CostRow[] | undefined, labels: Readonly<Record<string, string>>, className = ''): string {
  if (!rows || !rows.some((r) => r.per !== 'none')) return '';
  const head =
    '<tr><th>Method</th><th class="num">Tasks</th><th class="num">Selection tokens</th><th class="num">Serving tokens / request</th><th class="num">Full menu / request</th><th class="num">Pays back after</th><th class="num">Selection time</th></tr>';
  const body = rows
    .map((r) => {
      const { selection, payback, time } = costCells(r, { brief: true });
      return `<tr><td>${label(labels, r.method)}</td><td class="num">${r.tasks}</td><td class="num">${selection}</td><td class="num">${thousands(r.servingTokens)}</td><td class="num">${thousands(r.fullTokens)}</td><td class="num">${payback}</td><td class="num">${time}</td></tr>`;
    })
    .join('');
  const note =
    'Prompt tokens the model read to choose (LOTS: teacher-forced scoring of the fitting traces and the budget sweep’s serving; router: per request; TTO†/Beam†: every candidate menu served on the fitting requests). Pays back after: N = C<sub>fit</sub> / (c<sub>full</sub> − c<sub>space</sub>) served requests (paper eq. 17). Each row is over the tasks that method was measured on.';
  return `<table class="${className}" data-testid="demo-cost"><thead>${head}</thead><tbody>${body}</tbody></table><p class="small muted">${note}</p>`;
}

/** The paper's Table 9 (fixed-k-table.ts) as a table: each label-free ranking at the same K as LOTS's top-K. */
export function fixedKHtml(table: FixedKTable | undefined, labels: Readonly<Record<string, string>>, className = ''): string {
  if (!table) return '';
  const head = `<tr><th>Ranking</th>${FIXED_KS.map((k) => `<th class="num">Accuracy at K = ${k}</th>`).join('')}${FIXED_KS.map((k) => `<th class="num">LOTS minus it at K = ${k} [95% interval]</th>`).join('')}</tr>`;
  const lots = `<tr><td><strong>LOTS</strong></td>${FIXED_KS.map((k) => `<td class="num">${percent(table.lots[k])}</td>`).join('')}${FIXED_KS.map(() => '<td class="num">—</td>').join('')}</tr>`;
  const body = table.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(fixedKRowName(r, labels[r.baseline] ?? r.baseline))}</td>${FIXED_KS.map((k) => `<td class="num">${percent(r.cells[k]?.accuracy)}</td>`).join('')}${FIXED_KS.map((k) => differenceCell(r.cells[k]?.difference)).join('')}</tr>`,
    )
    .join('');
  const note = `No fitting label chooses any of these spaces: every ranking keeps its top K tools in every family, so the difference is the ranking's alone. On the same evaluation requests: a 95% family-stratified paired bootstrap interval (${DEFAULT_PAIRED_RESAMPLES.toLocaleString('en-US')} resamples), McNemar's exact p.`;
  return `<table class="${className}" data-testid="demo-fixed-k"><thead>${head}</thead><tbody>${lots}${body}</tbody></table><p class="small muted">${note}</p>`;
}
