// The demo's story as SVG charts and a one-page HTML report: accuracy per method (fitting and
// evaluation), prompt tokens per request, accuracy against registry size, and per family the kept
// tools next to the gold chain. The Demo view draws the same SVG, so the file a stakeholder is sent
// shows exactly what the screen showed. No scripts, no external assets.
import type { DemoCell, DemoData } from '../api/types';
import type { DemoRecord, GrowthPoint } from '../project/demo';
import { decodeCaveat } from '../project/run-record';
import { escapeHtml, px } from './html';
import { isFixedK, SELECTION_METHODS } from '../selection/registry';
import { percent } from '../text';
import { costHtml, fixedKHtml, pairedHtml } from './demo-statistics';
import { formatFixedKSeedTable, formatSeedTable, seedsHeadline } from '../benchmark/seeds';
import { isBenchVariant, VARIANT_SUMMARIES } from '../benchmark/variant';

export const METHOD_LABELS: Readonly<Record<string, string>> = Object.fromEntries(SELECTION_METHODS.map((m) => [m.id, m.label]));

/** Colours that read on white and on the Studio's dark theme; LOTS stands out. */
const COLOURS = { lots: '#2f8f4e', other: '#8a96a3', fit: '#b7c6d6', eval: '#44607d', keepAll: '#c0533a' } as const;

/** The footnote of a family whose K no fitting label chose (DemoTask.kByDefault). */
export const K_BY_DEFAULT = 'No K answered a fitting request right, so K is the rule’s default (the smallest K at the best fitting accuracy), not evidence.';

/** The methods the charts and the per-family table show: every method of the run but Table 9's fixed-K
 * rankings, which have a table of their own beside LOTS at the same K (fixedKHtml). */
export function chartedMethods(data: DemoData): string[] {
  return data.methods.filter((m) => !isFixedK(m));
}

/** Room for the longest method label at the charts' 10px font (about 6.2px a character), never under 90px. */
function labelWidth(rows: readonly string[]): number {
  return Math.max(90, Math.ceil(Math.max(...rows.map((m) => methodLabel(m).length)) * 6.2) + 10);
}

export function methodLabel(name: string): string {
  return METHOD_LABELS[name] ?? name;
}

/** Grouped horizontal bars: per method, fitting and evaluation accuracy (mean over families). */
export function accuracyChart(data: DemoData): string {
  const rows = chartedMethods(data).filter((m) => data.mean[m]);
  if (rows.length === 0) return '';
  const labelW = labelWidth(rows);
  const width = 460;
  const plotW = width - labelW - 46;
  const groupH = 34;
  const height = rows.length * groupH + 34;
  const x = (v: number) => labelW + v * plotW;
  const bars = rows
    .map((m, i) => {
      const y = 6 + i * groupH;
      const cells: Array<['fit' | 'eval', DemoCell | undefined]> = [
        ['fit', data.mean[m]!.fit],
        ['eval', data.mean[m]!.eval],
      ];
      const parts = cells
        .map(([split, c], j) => {
          if (!c) return '';
          const yy = y + j * 13;
          const fill = split === 'eval' ? (m === 'lots' ? COLOURS.lots : COLOURS.eval) : COLOURS.fit;
          return (
            `<rect x="${labelW}" y="${px(yy)}" width="${px(Math.max(c.accuracy * plotW, 0.75))}" height="11" fill="${fill}"><title>${escapeHtml(`${methodLabel(m)}, ${split === 'fit' ? 'fitting' : 'evaluation'}: ${percent(c.accuracy)} of ${c.n}`)}</title></rect>` +
            `<text x="${px(x(c.accuracy) + 4)}" y="${px(yy + 9)}">${percent(c.accuracy)}</text>`
          );
        })
        .join('');
      return `<text x="${labelW - 6}" y="${px(y + 16)}" text-anchor="end"${m === 'lots' ? ' font-weight="600"' : ''}>${escapeHtml(methodLabel(m))}</text>${parts}`;
    })
    .join('\n');
  const axisY = rows.length * groupH + 8;
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line x1="${px(x(t))}" x2="${px(x(t))}" y1="2" y2="${axisY}" stroke="#8884" stroke-width="1"/><text x="${px(x(t))}" y="${axisY + 12}" text-anchor="middle">${percent(t)}</text>`,
    )
    .join('');
  const legend =
    `<rect x="${labelW}" y="${axisY + 17}" width="10" height="8" fill="${COLOURS.fit}"/><text x="${labelW + 14}" y="${axisY + 24}">fitting</text>` +
    `<rect x="${labelW + 70}" y="${axisY + 17}" width="10" height="8" fill="${COLOURS.eval}"/><text x="${labelW + 84}" y="${axisY + 24}">evaluation</text>`;
  const summary = rows.map((m) => `${methodLabel(m)} ${percent(data.mean[m]!.eval?.accuracy)}`).join(', ');
  return `<svg class="demo-chart" viewBox="0 0 ${width} ${height + 18}" width="${width}" height="${height + 18}" role="img" aria-label="Accuracy per method on evaluation requests: ${escapeHtml(summary)}">
${ticks}
${bars}
${legend}
</svg>`;
}

/** Horizontal bars: prompt tokens per request under each method (evaluation requests). */
export function tokensChart(data: DemoData): string {
  const rows = chartedMethods(data).filter((m) => data.mean[m]?.eval);
  if (rows.length === 0) return '';
  const labelW = labelWidth(rows);
  const width = 460;
  const plotW = width - labelW - 60;
  const rowH = 20;
  const max = Math.max(...rows.map((m) => data.mean[m]!.eval!.promptTokens), 1);
  const height = rows.length * rowH + 8;
  const bars = rows
    .map((m, i) => {
      const c = data.mean[m]!.eval!;
      const y = 4 + i * rowH;
      const w = (c.promptTokens / max) * plotW;
      const fill = m === 'lots' ? COLOURS.lots : m === 'keep-all' ? COLOURS.keepAll : COLOURS.other;
      return (
        `<text x="${labelW - 6}" y="${px(y + 11)}" text-anchor="end"${m === 'lots' ? ' font-weight="600"' : ''}>${escapeHtml(methodLabel(m))}</text>` +
        `<rect x="${labelW}" y="${px(y + 2)}" width="${px(Math.max(w, 0.75))}" height="12" fill="${fill}"/>` +
        `<text x="${px(labelW + w + 4)}" y="${px(y + 12)}">${Math.round(c.promptTokens).toLocaleString('en-US')}</text>`
      );
    })
    .join('\n');
  const summary = rows.map((m) => `${methodLabel(m)} ${Math.round(data.mean[m]!.eval!.promptTokens)}`).join(', ');
  return `<svg class="demo-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Prompt tokens per request: ${escapeHtml(summary)}">
${bars}
</svg>`;
}

/**
 * Accuracy against prompt tokens per request, one point per method on the evaluation requests (issue 40):
 * up and to the left is better, so the picture shows at once what LOTS buys and what it costs. Round
 * ticks on both axes; each point labelled with its method.
 */
export function accuracyTokensChart(data: DemoData): string {
  const rows = chartedMethods(data).filter((m) => data.mean[m]?.eval);
  if (rows.length < 2) return '';
  const width = 460;
  const height = 250;
  const left = 48;
  const right = 24;
  const top = 12;
  const plotH = 180;
  const plotW = width - left - right;
  const maxTokens = Math.max(...rows.map((m) => data.mean[m]!.eval!.promptTokens), 1);
  const raw = maxTokens / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((v) => v >= raw) ?? 10 * mag;
  const xMax = Math.ceil(maxTokens / step) * step;
  const x = (v: number) => left + (v / xMax) * plotW;
  const y = (v: number) => top + (1 - v) * plotH;
  const yGrid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line x1="${left}" x2="${width - right}" y1="${px(y(t))}" y2="${px(y(t))}" stroke="#8884"/><text x="${left - 6}" y="${px(y(t) + 3)}" text-anchor="end">${percent(t)}</text>`,
    )
    .join('');
  const xTicks: string[] = [];
  for (let v = 0; v <= xMax + step / 2; v += step) {
    xTicks.push(
      `<line x1="${px(x(v))}" x2="${px(x(v))}" y1="${top + plotH}" y2="${top + plotH + 4}" stroke="#888"/><text x="${px(x(v))}" y="${top + plotH + 16}" text-anchor="middle">${Math.round(v).toLocaleString('en-US')}</text>`,
    );
  }
  // Labels beside their points, each moved down (or up) a line where it would cover a label placed before it
  // or another point (methods close in accuracy and tokens, e.g. no tools and Random near the origin).
  const placed: { x0: number; x1: number; y: number }[] = [];
  const dots = rows.map((m) => ({ m, x: x(data.mean[m]!.eval!.promptTokens), y: y(data.mean[m]!.eval!.accuracy) }));
  const points = rows
    .map((m) => {
      const c = data.mean[m]!.eval!;
      const fill = m === 'lots' ? COLOURS.lots : m === 'keep-all' ? COLOURS.keepAll : COLOURS.other;
      const cx = x(c.promptTokens);
      const cy = y(c.accuracy);
      const anchorEnd = cx > left + plotW * 0.8;
      const text = `${methodLabel(m)} ${percent(c.accuracy)}`;
      const tx = cx + (anchorEnd ? -8 : 8);
      const box = { x0: anchorEnd ? tx - text.length * 5.6 : tx, x1: anchorEnd ? tx : tx + text.length * 5.6 };
      const covers = (ty: number) =>
        placed.some((b) => Math.abs(b.y - ty) < 11 && b.x0 < box.x1 && box.x0 < b.x1) ||
        dots.some((d) => d.m !== m && d.x > box.x0 - 4 && d.x < box.x1 + 4 && Math.abs(d.y - (ty - 4)) < 8);
      const ty = [0, 11, -11, 22, -22].map((d) => cy + 4 + d).find((t) => !covers(t)) ?? cy + 4;
      placed.push({ ...box, y: ty });
      return (
        `<circle cx="${px(cx)}" cy="${px(cy)}" r="${m === 'lots' ? 5 : 4}" fill="${fill}"><title>${escapeHtml(`${methodLabel(m)}: ${percent(c.accuracy)} of ${c.n} requests, ${Math.round(c.promptTokens)} prompt tokens per request`)}</title></circle>` +
        `<text x="${px(tx)}" y="${px(ty)}"${anchorEnd ? ' text-anchor="end"' : ''}${m === 'lots' ? ' font-weight="600"' : ''}>${escapeHtml(text)}</text>`
      );
    })
    .join('');
  const axisTitle = `<text x="${left + plotW / 2}" y="${height - 8}" text-anchor="middle">prompt tokens per request (evaluation) →</text>`;
  const summary = rows
    .map((m) => `${methodLabel(m)} ${percent(data.mean[m]!.eval!.accuracy)} at ${Math.round(data.mean[m]!.eval!.promptTokens)} tokens`)
    .join(', ');
  return `<svg class="demo-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Accuracy against prompt tokens per request: ${escapeHtml(summary)}">
${yGrid}
${xTicks.join('')}
${points}
${axisTitle}
</svg>`;
}

/** Accuracy of keep-all and LOTS against registry size (paper Figure 1(c)), prompt tokens under each point. */
export function growthChart(points: readonly GrowthPoint[]): string {
  const usable = points.filter((p) => p.methods.lots && p.methods['keep-all']);
  if (usable.length < 2) return '';
  const width = 460;
  const height = 268;
  const left = 60;
  const right = 48;
  const top = 12;
  const plotH = 150;
  const step = (width - left - right) / (usable.length - 1);
  const x = (i: number) => left + i * step;
  const y = (v: number) => top + (1 - v) * plotH;
  const series = (name: 'lots' | 'keep-all', colour: string, dash: string) => {
    const pts = usable.map((p, i) => [x(i), y(p.methods[name]!.accuracy)] as const);
    const path = pts.map(([a, b], i) => `${i ? 'L' : 'M'}${px(a)},${px(b)}`).join(' ');
    const dots = usable
      .map(
        (p, i) =>
          `<circle cx="${px(pts[i]![0])}" cy="${px(pts[i]![1])}" r="3.5" fill="${colour}"><title>${escapeHtml(`${methodLabel(name)} at ${p.registry} tools: ${percent(p.methods[name]!.accuracy)} (n = ${p.methods[name]!.n}), ${Math.round(p.methods[name]!.promptTokens)} prompt tokens`)}</title></circle>` +
          // LOTS labels below its points, keep-all above, the last point's label to its left: none overlap.
          `<text x="${px(pts[i]![0] + (i === usable.length - 1 ? -6 : 6))}" y="${px(pts[i]![1] + (name === 'lots' ? 14 : -6))}" fill="${colour}"${i === usable.length - 1 ? ' text-anchor="end"' : ''}>${percent(p.methods[name]!.accuracy)}</text>`,
      )
      .join('');
    return `<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>${dots}`;
  };
  const grid = [0, 0.5, 1]
    .map(
      (t) =>
        `<line x1="${left}" x2="${width - right}" y1="${px(y(t))}" y2="${px(y(t))}" stroke="#8884"/><text x="${left - 6}" y="${px(y(t) + 3)}" text-anchor="end">${percent(t)}</text>`,
    )
    .join('');
  const xLabels = usable
    .map(
      (p, i) =>
        `<text x="${px(x(i))}" y="${top + plotH + 30}" text-anchor="middle">${p.registry} tools</text>` +
        `<text x="${px(x(i))}" y="${top + plotH + 44}" text-anchor="middle" class="muted">${Math.round(p.methods['keep-all']!.promptTokens)} / ${Math.round(p.methods.lots!.promptTokens)} tok</text>`,
    )
    .join('');
  const legend =
    `<line x1="${left}" x2="${left + 18}" y1="${height - 26}" y2="${height - 26}" stroke="${COLOURS.lots}" stroke-width="2"/><text x="${left + 22}" y="${height - 23}">LOTS</text>` +
    `<line x1="${left + 70}" x2="${left + 88}" y1="${height - 26}" y2="${height - 26}" stroke="${COLOURS.keepAll}" stroke-width="2" stroke-dasharray="5 3"/><text x="${left + 92}" y="${height - 23}">Keep-all (the whole registry)</text>` +
    `<text x="${left}" y="${height - 5}">Under each size: prompt tokens per request, keep-all / LOTS.</text>`;
  const summary = usable
    .map((p) => `${p.registry} tools: keep-all ${percent(p.methods['keep-all']!.accuracy)}, LOTS ${percent(p.methods.lots!.accuracy)}`)
    .join('; ');
  return `<svg class="demo-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Accuracy against registry size: ${escapeHtml(summary)}">
${grid}
${series('keep-all', COLOURS.keepAll, '5 3')}
${series('lots', COLOURS.lots, '')}
${xLabels}
${legend}
</svg>`;
}

export interface DemoReportOptions {
  projectName: string;
  generatedAt?: string;
}

/** " · 184 min" from a demo record's seconds, "… so far, not finished" until it has finished; '' without seconds. */
/** How long the run took, every sitting counted: a `--seeds` demo adds the seed folders' own runs
 * (a seed run on its own before the demo joined it). */
export function demoDuration(r: Pick<DemoRecord, 'seconds' | 'finishedAt' | 'seeds'>): string {
  if (r.seconds === undefined) return '';
  const own = (r.seeds ?? []).filter((p) => p.seconds !== undefined);
  const total = own.reduce((a, p) => a + p.seconds!, r.seconds);
  const where = own.length > 0 ? ` over every seed's runs` : '';
  const minutes = Math.round(total / 60);
  const text = minutes >= 120 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return ` · ${text}${where}${r.finishedAt ? '' : ' so far, not finished'}`;
}

export function renderDemoReport(data: DemoData, options: DemoReportOptions): string {
  const r = data.record;
  const lots = data.mean.lots?.eval;
  const all = data.mean['keep-all']?.eval;
  const seedsSentence = r?.seeds ? seedsHeadline(r.seeds) : undefined;
  const fixedKSeeds = r?.seeds && r.seeds.length > 1 ? formatFixedKSeedTable(r.seeds) : '';
  const headline =
    lots && all
      ? `LOTS keeps ${meanKept(data).toFixed(1)} tools per task and answers ${percent(lots.accuracy)} of ${lots.n} evaluation requests, against ${percent(all.accuracy)} with the whole registry, using ${Math.round(lots.promptTokens)} instead of ${Math.round(all.promptTokens)} prompt tokens per request.${seedsSentence ? ` ${seedsSentence}` : ''}`
      : 'No evaluation results yet.';
  const methods = chartedMethods(data);
  const rows = data.tasks
    .map((t) => {
      const chain = new Set(t.chain);
      const kept = t.kept.map((tool) => `<span class="${chain.has(tool) ? 'hit' : 'miss'}">${escapeHtml(tool)}</span>`).join(' ') || '(none)';
      const acc = (m: string, s: 'fit' | 'eval') => {
        const c = t.methods[m]?.[s];
        return c ? `${c.accuracy.toFixed(2)}${c.accuracyStd !== undefined ? `±${c.accuracyStd.toFixed(2)}` : ''}` : '—';
      };
      return (
        `<tr><td>${escapeHtml(t.task)}</td><td class="num">${t.k}${t.kByDefault ? `<sup title="${escapeHtml(K_BY_DEFAULT)}">*</sup>` : ''}</td><td class="tools">${kept}</td><td class="tools">${t.chain.map(escapeHtml).join(' → ') || '(none)'}</td>` +
        methods.map((m) => `<td class="num">${acc(m, 'fit')} / ${acc(m, 'eval')}</td>`).join('') +
        '</tr>'
      );
    })
    .join('\n');
  const meanRow =
    `<tr class="mean"><td>mean</td><td class="num">${meanKept(data).toFixed(1)}</td><td></td><td></td>` +
    methods
      .map(
        (m) =>
          `<td class="num">${data.mean[m]?.fit ? data.mean[m].fit.accuracy.toFixed(2) : '—'} / ${data.mean[m]?.eval ? data.mean[m].eval.accuracy.toFixed(2) : '—'}</td>`,
      )
      .join('') +
    '</tr>';
  const growth = r && r.growth.length > 1 ? growthChart(r.growth) : '';
  const paired = pairedHtml(data.paired, METHOD_LABELS, '', { familiesOpen: true });
  const cost = costHtml(data.cost, METHOD_LABELS);
  const fixedK = fixedKHtml(data.fixedK, METHOD_LABELS);
  const caveat = r ? decodeCaveat(r) : undefined;
  const provenance = r
    ? `${escapeHtml(r.modelName)} · ${escapeHtml(r.machine)} · ${escapeHtml(r.startedAt.slice(0, 10))}${demoDuration(r)}<br><code>${escapeHtml(r.command)}</code>${(r.resumedWith ?? []).map((c) => ` then, resumed with: <code>${escapeHtml(c)}</code>`).join('')}<br>` +
      `${r.preset.families.length === 1 ? '1 family' : `${r.preset.families.length} families`} × (${r.preset.fit} fitting + ${r.preset.eval} evaluation requests), registry of ${r.preset.registry} tools, budgets K = 1…${r.preset.kMax ?? 'all'}, ${r.preset.draws} Random draws, seed ${escapeHtml(r.preset.seed)}${r.preset.seeds ? ` and the next ${r.preset.seeds - 1}` : ''}${variantClause(r.preset.variant)}`
    : "Not made by <code>lots demo</code>: results from the project's budget sweeps.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(`LOTS demo — ${options.projectName}`)}</title>
<style>
  @page { size: A4; margin: 14mm; }
  body { font: 12px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; margin: 24px auto; max-width: 960px; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 18px 0 6px; }
  .meta { color: #555; margin: 0 0 12px; } .headline { font-size: 14px; margin: 8px 0 12px; }
  .caveat { border-left: 3px solid #b7791f; background: #fdf6e3; padding: 6px 10px; margin: 0 0 12px; }
  .charts { display: flex; flex-wrap: wrap; gap: 18px; } .charts > div { flex: 1 1 420px; }
  table { border-collapse: collapse; width: 100%; } th, td { padding: 3px 6px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
  th { font-weight: 600; border-bottom: 2px solid #999; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tr.mean td { font-weight: 600; border-top: 2px solid #999; } td.strong { font-weight: 700; } .muted { color: #666; } .small { font-size: 11px; }
  .tools { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; } .hit { color: #2f7a43; font-weight: 600; } .miss { color: #9a3b2b; }
  svg { display: block; max-width: 100%; height: auto; } svg text { font: 10px system-ui, sans-serif; fill: #333; }
  footer { color: #777; margin-top: 18px; font-size: 10px; }
  @media print { body { margin: 0; max-width: none; font-size: 10px; } svg, tr { break-inside: avoid; } rect, path, circle { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
</style>
</head>
<body>
<h1>${escapeHtml(`LOTS demo — ${options.projectName}`)}</h1>
<p class="meta">${provenance}</p>
<p class="headline">${escapeHtml(headline)}</p>
${caveat ? `<p class="caveat" data-testid="decode-caveat">${escapeHtml(caveat)}</p>` : ''}
<div class="charts">
<div><h2>Accuracy per method</h2>${accuracyChart(data)}</div>
<div><h2>Prompt tokens per request</h2>${tokensChart(data)}</div>
${accuracyTokensChart(data) ? `<div><h2>Accuracy against prompt tokens</h2>${accuracyTokensChart(data)}</div>` : ''}
${growth ? `<div><h2>Accuracy as the registry grows</h2>${growth}</div>` : ''}
</div>
<h2>Per family: kept tools against the gold chain</h2>
<p class="meta">Kept tools in green are in the family's gold chain, red ones are not. Cells: accuracy on fitting / evaluation requests${data.methods.includes('random') ? '; Random ± its std over draws' : ''}.</p>
<table>
<thead><tr><th>Family</th><th class="num">K</th><th>Kept (LOTS)</th><th>Gold chain</th>${methods.map((m) => `<th class="num">${escapeHtml(methodLabel(m))}</th>`).join('')}</tr></thead>
<tbody>
${rows}
${data.tasks.length > 1 ? meanRow : ''}
</tbody>
</table>
${data.tasks.some((t) => t.kByDefault) ? `<p class="meta">* ${escapeHtml(K_BY_DEFAULT)}</p>` : ''}
${paired ? `<h2>Is the difference real? LOTS minus each baseline</h2>\n${paired}` : ''}
${r?.seeds?.length ? `<h2>Across seeds</h2>\n<pre class="small">${escapeHtml(formatSeedTable(r.seeds))}</pre>` : ''}${fixedKSeeds ? `\n<h3>Every ranking at the same K, across seeds</h3>\n<pre class="small">${escapeHtml(fixedKSeeds)}</pre>` : ''}
${fixedK ? `<h2>Every ranking at the same K (the paper's Table 9)</h2>\n${fixedK}` : ''}
${cost ? `<h2>The cost of selection</h2>\n${cost}` : ''}
<footer>LOTS Studio${options.generatedAt ? ` · ${escapeHtml(options.generatedAt)}` : ''}</footer>
</body>
</html>
`;
}

/** ", composition variant (no tool line states the answer; …)" for a non-default variant. */
function variantClause(variant: string | undefined): string {
  if (!variant || variant === 'faithful') return '';
  return `, ${escapeHtml(variant)} variant${isBenchVariant(variant) ? ` (${escapeHtml(VARIANT_SUMMARIES[variant])})` : ''}`;
}

export function meanKept(data: DemoData): number {
  return data.tasks.length ? data.tasks.reduce((a, t) => a + t.kept.length, 0) / data.tasks.length : 0;
}
