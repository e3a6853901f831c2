// A self-contained one-page HTML report of a task's space: ranking with intervals, a bar chart, the budget
// curve when one is known, the kept tools and the note. No scripts, no external assets; prints to PDF.
import type { SelectionRule } from '../project/spaces';
import { escapeHtml, formatScore, px } from './html';
import type { ExportableSpace } from './space';
import { percent } from '../text';

export interface ReportRankingRow {
  tool: string;
  mean: number;
  n: number;
  lo?: number;
  hi?: number;
  /** Share of bootstrap resamples keeping the tool in the top-K. */
  topKShare?: number;
}

export interface ReportBudgetPoint {
  k: number;
  /** Measured fitting accuracy (a budget sweep), when known. */
  accuracy?: number | null;
  /** F̂(TopK), the additive surrogate. */
  surrogate?: number | null;
}

export interface ReportInput {
  space: ExportableSpace;
  ranking: readonly ReportRankingRow[];
  budget?: readonly ReportBudgetPoint[];
  /** K marked on the budget curve (the chosen budget). */
  chosenK?: number;
  requests?: number;
  /** Shown in the footer; the caller supplies it (this module reads no clock). */
  generatedAt?: string;
}

export function renderSpaceReport(input: ReportInput): string {
  const { space } = input;
  const kept = new Set(space.tools);
  const status = space.version === null ? 'proposed (not approved yet)' : `approved version ${space.version}`;
  const title = `Tool space of task ${space.task}`;
  const rows = input.ranking
    .map(
      (r, i) =>
        `<tr class="${kept.has(r.tool) ? 'kept' : ''}">` +
        `<td class="num">${i + 1}</td><td>${escapeHtml(r.tool)}</td><td class="num">${formatScore(r.mean)}</td>` +
        `<td class="num">${r.lo !== undefined && r.hi !== undefined ? `${formatScore(r.lo)} – ${formatScore(r.hi)}` : '—'}</td>` +
        `<td class="num">${r.n}</td><td class="num">${percent(r.topKShare)}</td>` +
        `<td>${kept.has(r.tool) ? '✓ kept' : ''}</td></tr>`,
    )
    .join('\n');
  const budget = input.budget && input.budget.length > 0 ? budgetChart(input.budget, input.chosenK) : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
  @page { size: A4; margin: 14mm; }
  body { font: 12px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; margin: 24px auto; max-width: 760px; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 18px 0 6px; }
  .meta { color: #555; margin: 0 0 12px; }
  table { border-collapse: collapse; width: 100%; } th, td { padding: 3px 6px; border-bottom: 1px solid #ddd; text-align: left; }
  th { font-weight: 600; border-bottom: 2px solid #999; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  tr.kept td { background: #eef6ee; }
  .tools { font-family: ui-monospace, Menlo, Consolas, monospace; }
  .note { white-space: pre-wrap; border-left: 3px solid #bbb; padding-left: 8px; }
  svg { display: block; max-width: 100%; height: auto; } svg text { font: 10px system-ui, sans-serif; fill: #333; }
  footer { color: #777; margin-top: 18px; font-size: 10px; }
  @media print {
    body { margin: 0; max-width: none; font-size: 10px; }
    h1 { font-size: 16px; } h2 { font-size: 12px; margin: 10px 0 4px; } .meta { margin-bottom: 6px; }
    th, td { padding: 1px 4px; }
    svg, tr { break-inside: avoid; }
    tr.kept td, rect { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(status)} · rule: ${escapeHtml(describeRule(space.rule))} · ${space.tools.length} tool${space.tools.length === 1 ? '' : 's'} kept of ${input.ranking.length} ranked${input.requests !== undefined ? ` · ${input.requests} request${input.requests === 1 ? '' : 's'}` : ''}${space.run ? ` · run ${escapeHtml(space.run)}` : ''}</p>
<section>
<h2>Kept tools</h2>
<p class="tools">${space.tools.length > 0 ? space.tools.map(escapeHtml).join(', ') : '(none)'}</p>
${space.note ? `<h2>Note</h2>\n<p class="note">${escapeHtml(space.note)}</p>` : ''}
</section>
<section>
<h2>Ranking</h2>
<p class="meta">Ī: mean of I<sub>x</sub>(s) over the requests that exposed and scored the tool; interval: bootstrap over requests; in top-K: share of resamples that keep the tool in the space.</p>
${rankingChart(input.ranking, kept)}
<table>
<thead><tr><th class="num">#</th><th>Tool</th><th class="num">Ī</th><th class="num">Interval</th><th class="num">n</th><th class="num">In top-K</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>
${budget ? `<section>\n<h2>Budget</h2>\n${budget}\n</section>` : ''}
<footer>LOTS Studio · task ${escapeHtml(space.task)}${space.version !== null ? ` · version ${space.version}` : ''}${input.generatedAt ? ` · ${escapeHtml(input.generatedAt)}` : ''}</footer>
</body>
</html>
`;
}

export function describeRule(rule: SelectionRule): string {
  switch (rule.kind) {
    case 'topk':
      return `top-K, K = ${rule.k}`;
    case 'threshold':
      return `mean score > ${rule.tau}`;
    case 'support':
      return `support frequency: share of requests with I > ${rule.tau} at least ${rule.phi}`;
    case 'manual':
      return 'edited by hand';
  }
}

/** Horizontal bars of Ī with interval whiskers; kept tools in green. */
function rankingChart(ranking: readonly ReportRankingRow[], kept: ReadonlySet<string>): string {
  if (ranking.length === 0) return '<p class="meta">No tool has a score yet.</p>';
  const rowH = 16;
  const labelW = 150;
  const width = 720;
  const plotW = width - labelW - 60;
  const values = ranking.flatMap((r) => [r.mean, r.lo ?? r.mean, r.hi ?? r.mean]).filter(Number.isFinite);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const x = (v: number) => labelW + ((v - min) / span) * plotW;
  const height = ranking.length * rowH + 24;
  const bars = ranking
    .map((r, i) => {
      const y = 4 + i * rowH;
      const x0 = x(Math.min(0, r.mean));
      const w = Math.abs(x(r.mean) - x(0));
      const fill = kept.has(r.tool) ? '#4c9a52' : '#9aa5b1';
      const label = r.tool.length > 24 ? `${r.tool.slice(0, 23)}…` : r.tool;
      const whisker =
        r.lo !== undefined && r.hi !== undefined && Number.isFinite(r.lo) && Number.isFinite(r.hi)
          ? `<line x1="${px(x(r.lo))}" x2="${px(x(r.hi))}" y1="${px(y + rowH / 2 - 2)}" y2="${px(y + rowH / 2 - 2)}" stroke="#222" stroke-width="1"/>`
          : '';
      return (
        `<text x="${labelW - 6}" y="${px(y + rowH / 2 + 1)}" text-anchor="end">${escapeHtml(label)}</text>` +
        `<rect x="${px(x0)}" y="${px(y + 2)}" width="${px(Math.max(w, 0.5))}" height="${rowH - 8}" fill="${fill}"/>${whisker}` +
        `<text x="${px(width - 4)}" y="${px(y + rowH / 2 + 1)}" text-anchor="end">${formatScore(r.mean)}</text>`
      );
    })
    .join('\n');
  const axisY = ranking.length * rowH + 8;
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Task scores of the ranked tools">
<line x1="${px(x(0))}" x2="${px(x(0))}" y1="0" y2="${axisY}" stroke="#666" stroke-width="1"/>
${bars}
<text x="${px(x(min))}" y="${axisY + 12}" text-anchor="start">${formatScore(min)}</text>
<text x="${px(x(max))}" y="${axisY + 12}" text-anchor="end">${formatScore(max)}</text>
</svg>`;
}

/** Accuracy (left axis, 0–1) and the surrogate F̂ (right axis, its own range) against K. */
function budgetChart(points: readonly ReportBudgetPoint[], chosenK?: number): string {
  const width = 720;
  const height = 220;
  const left = 44;
  const right = 56;
  const top = 10;
  const bottom = 30;
  const ks = points.map((p) => p.k);
  const kMin = Math.min(...ks);
  const kMax = Math.max(...ks);
  const x = (k: number) => left + (kMax === kMin ? 0.5 : (k - kMin) / (kMax - kMin)) * (width - left - right);
  const plotH = height - top - bottom;
  const acc = points.filter((p) => typeof p.accuracy === 'number' && Number.isFinite(p.accuracy));
  const sur = points.filter((p) => typeof p.surrogate === 'number' && Number.isFinite(p.surrogate));
  const yAcc = (a: number) => top + (1 - a) * plotH;
  const sMin = Math.min(...sur.map((p) => p.surrogate!));
  const sMax = Math.max(...sur.map((p) => p.surrogate!));
  const ySur = (s: number) => top + (1 - (sMax === sMin ? 0.5 : (s - sMin) / (sMax - sMin))) * plotH;
  const line = (pts: string[], color: string, dash = '') =>
    pts.length === 0 ? '' : `<polyline points="${pts.join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
  const accLine = line(
    acc.map((p) => `${px(x(p.k))},${px(yAcc(p.accuracy!))}`),
    '#2f6fb0',
  );
  const surLine = line(
    sur.map((p) => `${px(x(p.k))},${px(ySur(p.surrogate!))}`),
    '#c0712f',
    '5 3',
  );
  const ticks = [...new Set(ks)].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(ticks.length / 16));
  const xTicks = ticks
    .filter((_, i) => i % step === 0)
    .map((k) => `<text x="${px(x(k))}" y="${height - bottom + 14}" text-anchor="middle">${k}</text>`)
    .join('');
  const chosen =
    chosenK !== undefined && ks.includes(chosenK)
      ? `<line x1="${px(x(chosenK))}" x2="${px(x(chosenK))}" y1="${top}" y2="${height - bottom}" stroke="#4c9a52" stroke-dasharray="3 3"/><text x="${px(x(chosenK) + 3)}" y="${top + 10}">K = ${chosenK}</text>`
      : '';
  const accAxis =
    acc.length > 0
      ? `<text x="${left - 4}" y="${px(yAcc(1) + 4)}" text-anchor="end">1.0</text><text x="${left - 4}" y="${px(yAcc(0))}" text-anchor="end">0.0</text><text x="4" y="${top + plotH / 2}" fill="#2f6fb0">acc.</text>`
      : '';
  const surAxis =
    sur.length > 0
      ? `<text x="${width - right + 4}" y="${px(ySur(sMax) + 4)}">${formatScore(sMax)}</text><text x="${width - right + 4}" y="${px(ySur(sMin))}">${formatScore(sMin)}</text><text x="${width - right + 4}" y="${top + plotH / 2}" fill="#c0712f">F̂</text>`
      : '';
  const legend = [acc.length > 0 ? 'solid blue: fitting accuracy' : '', sur.length > 0 ? 'dashed orange: additive surrogate F̂ (likelihood, not accuracy)' : '']
    .filter(Boolean)
    .join(' · ');
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Budget curve against K">
<rect x="${left}" y="${top}" width="${width - left - right}" height="${plotH}" fill="none" stroke="#ccc"/>
${accLine}
${surLine}
${chosen}
${xTicks}
<text x="${px((left + width - right) / 2)}" y="${height - 2}" text-anchor="middle">K (tools kept)</text>
${accAxis}
${surAxis}
</svg>
<p class="meta">${escapeHtml(legend)}</p>`;
}
