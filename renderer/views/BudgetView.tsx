// Budget sweep & K slider: curves against K (measured fitting accuracy where swept, the additive
// surrogate F̂, tool-definition and prompt tokens, baselines) and a slider whose every move updates
// the kept set, the heatmap greying and the curve markers in the same frame.
import { memo, useMemo } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  DefaultZIndexes,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  ZIndexLayer,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
} from 'recharts';
import type { BudgetData } from '../../shared/api';
import { Empty } from '../components/Empty';
import { fmtInt, fmtPercent, fmtScore, fmtSigned } from '../format';
import { selectKept } from '../store/draft-slice';
import { useDraft, useStudio, useTaskView } from '../store/react';
import { baselineLayout, baselineStyle, fmtAxisScore, tickDigits, type BaselineShape } from './budget-chart';
import { useChartColors } from './chart-colors';
import { ownValue } from '../../shared/trace/own-record';

export function BudgetView() {
  const task = useStudio((s) => s.route.task);
  const budget = useTaskView('budgets', task);
  const { draft, space } = useDraft(task);
  const kept = useStudio((s) => selectKept(s, task));
  const setK = useStudio((s) => s.setK);
  const navigate = useStudio((s) => s.navigate);
  const colors = useChartColors();
  const data = useMemo(() => budget?.points ?? [], [budget]);
  const fitBaselines = useMemo(() => (budget?.baselines ?? []).filter((b) => b.split !== 'eval'), [budget]);

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!budget || !space) return <p className="muted">Loading the budget curves of {task}…</p>;
  if (budget.ranking.length === 0) {
    return (
      <Empty
        title="No ranking to size yet"
        actions={
          <button className="btn primary" onClick={() => navigate({ view: 'jobs' })}>
            Score the project…
          </button>
        }
      >
        The budget curves need attribution scores for this task.
      </Empty>
    );
  }
  const max = budget.ranking.length;
  const k = Math.min(draft?.k ?? budget.recommendedK ?? max, max);
  const point = budget.points[k];
  const keptTools = kept ?? [];
  const keptTokens = keptTools.reduce((n, t) => n + (ownValue(budget.toolSchemaTokens, t) ?? 0), 0);
  const swept = budget.points.some((p) => p.accuracy !== null);
  const hasPrompt = budget.points.some((p) => p.promptTokens !== null);
  const rec = budget.recommendedK;
  const edited = draft ? draft.pinned.length + draft.banned.length + draft.added.length + draft.removed.length > 0 : false;

  return (
    <div className="budget">
      <div className="card budget-slider">
        <div className="budget-slider-row">
          <label htmlFor="k-slider">
            <strong>Budget K</strong>
          </label>
          <input
            id="k-slider"
            type="range"
            min={0}
            max={max}
            step={1}
            value={k}
            onChange={(e) => task && setK(task, Number(e.target.value))}
            list="k-ticks"
            aria-valuetext={`K = ${k}, ${keptTools.length} tools kept`}
            data-testid="k-slider"
          />
          <datalist id="k-ticks">
            {budget.points.map((p) => (
              <option key={p.k} value={p.k} />
            ))}
          </datalist>
          <output className="k-value tabular" data-testid="k-value">
            K = {k}
          </output>
          {rec !== null && (
            <button
              className="btn small"
              onClick={() => task && setK(task, rec)}
              disabled={rec === k}
              title={
                budget.recommendedBy === 'sweep'
                  ? 'Smallest K at the best fitting accuracy'
                  : 'F̂ is largest when every tool with a positive score is kept (no sweep yet)'
              }
            >
              Recommended K = {rec} <span className="muted tiny">({budget.recommendedBy === 'sweep' ? 'sweep' : 'surrogate'})</span>
            </button>
          )}
        </div>
        <div className="budget-readout">
          <Readout label="kept tools" value={`${keptTools.length} of ${budget.menuSize}`} />
          <Readout
            label="F̂ at K"
            value={fmtScore(point?.surrogate, 4)}
            hint={budget.fullValue === null ? 'relative to the full menu' : 'mean log-likelihood'}
          />
          <Readout
            label="fitting accuracy"
            value={point?.accuracy !== null && point?.accuracy !== undefined ? fmtPercent(point.accuracy, 1) : '—'}
            hint={swept ? `n = ${point?.n ?? '—'}` : 'not swept'}
          />
          <Readout
            label="tool-definition tokens"
            value={fmtInt(keptTokens)}
            hint={`${fmtPercent(budget.menuSchemaTokens ? 1 - keptTokens / budget.menuSchemaTokens : 0)} saved vs keep-all${budget.schemaTokensEstimated ? ' · estimated' : ''}`}
          />
        </div>
        <div className="chips kept-chips" data-testid="kept-set" aria-live="polite">
          {keptTools.length === 0 ? (
            <span className="muted small">No tools kept at K = 0.</span>
          ) : (
            keptTools.map((t) => (
              <span key={t} className={`chip${draft?.pinned.includes(t) ? ' pinned' : ''}${draft?.added.includes(t) ? ' added' : ''}`}>
                {t}
              </span>
            ))
          )}
          {edited && <span className="muted small">(with your edits from the space editor)</span>}
        </div>
      </div>

      <div className="grid-2" style={{ marginTop: 14 }}>
        <FitChart task={task} budget={budget} data={data} max={max} swept={swept} baselines={fitBaselines} colors={colors} />
        <CostChart task={task} budget={budget} data={data} max={max} hasPrompt={hasPrompt} colors={colors} />
      </div>

      <SweepCard budget={budget} />
    </div>
  );
}

type Colors = ReturnType<typeof useChartColors>;
type ChartPoint = BudgetData['points'][number];

/**
 * The current K, drawn by itself inside a chart: a slider move re-renders this marker only, never the
 * curves (which are memoised), so the preview keeps up with the slider.
 */
function KMarker({ task, max, color, label }: { task: string; max: number; color: string; label: boolean }) {
  const k = useStudio((s) => Math.min(s.drafts[task]?.k ?? max, max));
  const x = useXAxisScale();
  const area = usePlotArea();
  if (!x || !area) return null;
  const px = x(k);
  if (px === undefined || !Number.isFinite(px)) return null;
  const right = k < max / 2;
  return (
    <g className="k-marker" pointerEvents="none">
      <line x1={px} x2={px} y1={area.y} y2={area.y + area.height} stroke={color} strokeWidth={2} />
      {label && (
        <text x={right ? px + 4 : px - 4} y={area.y + 12} textAnchor={right ? 'start' : 'end'} fontSize={11} fill={color}>
          K = {k}
        </text>
      )}
    </g>
  );
}

interface ChartProps {
  task: string;
  budget: BudgetData;
  data: ChartPoint[];
  max: number;
  colors: Colors;
}

const FitChart = memo(function FitChart({
  task,
  budget,
  data,
  max,
  swept,
  baselines,
  colors,
}: ChartProps & { swept: boolean; baselines: BudgetData['baselines'] }) {
  const rec = budget.recommendedK;
  const marks = swept ? baselines : [];
  const digits = useMemo(() => tickDigits(data.map((p) => p.surrogate)), [data]);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Fit against K</h2>
        <span className="sub">{swept ? 'measured on the fitting requests' : 'surrogate F̂ · no sweep yet'}</span>
      </div>
      <FitLegend swept={swept} rec={rec} baselines={marks} colors={colors} />
      <div className="chart" data-testid="budget-fit-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 14, right: 18, bottom: 18, left: 8 }}>
            <CartesianGrid stroke={colors.grid} />
            <XAxis
              dataKey="k"
              type="number"
              domain={[0, max]}
              allowDecimals={false}
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              label={{ value: 'K (tools kept)', position: 'insideBottom', offset: -10, fontSize: 11, fill: colors.text }}
            />
            <YAxis
              yAxisId="s"
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              tickFormatter={(v: number) => fmtAxisScore(v, digits)}
              width={56}
              domain={['auto', 'auto']}
              padding={Y_PADDING}
            />
            {swept && (
              <YAxis
                yAxisId="a"
                orientation="right"
                domain={[0, 1]}
                tickFormatter={(v: number) => fmtPercent(v)}
                tick={{ fontSize: 11, fill: colors.text }}
                stroke={colors.axis}
                width={44}
                padding={Y_PADDING}
              />
            )}
            <Tooltip
              contentStyle={colors.tooltip}
              labelFormatter={(v) => `K = ${Number(v)}`}
              formatter={(v, name) => (name === 'accuracy' ? fmtPercent(Number(v), 1) : fmtAxisScore(Number(v), Math.max(4, digits)))}
            />
            <Line
              yAxisId="s"
              type="linear"
              dataKey="surrogate"
              name="F̂ (surrogate)"
              stroke={colors.neg}
              strokeDasharray="5 3"
              dot={{ r: 2 }}
              strokeWidth={2}
              isAnimationActive={false}
            />
            {swept && (
              <Line
                yAxisId="a"
                type="linear"
                dataKey="accuracy"
                name="accuracy"
                stroke={colors.pos}
                strokeWidth={2}
                dot={{ r: 2.5 }}
                connectNulls
                isAnimationActive={false}
              />
            )}
            {rec !== null && <ReferenceLine yAxisId="s" x={rec} stroke={colors.good} strokeDasharray="4 4" />}
            <KMarker task={task} max={max} color={colors.accent} label />
            {marks.length > 0 && <BaselineMarks baselines={marks} colors={colors} />}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
});

/** Room between the axes and a value at the end of the domain (a baseline at 0 % sits above the K axis). */
const Y_PADDING = { top: 8, bottom: 10 };

/**
 * The fit chart's legend, outside the SVG so it wraps instead of overlapping: every line and reference
 * drawn in the chart, each with its own stroke or marker, and the baselines by name (the chart itself
 * carries no baseline text, so nothing can be drawn over anything else).
 */
function FitLegend({ swept, rec, baselines, colors }: { swept: boolean; rec: number | null; baselines: BudgetData['baselines']; colors: Colors }) {
  return (
    <div className="chart-legends" data-testid="budget-fit-legend">
      <ul className="chart-legend" aria-label="Legend: curves">
        <li>
          <LineSwatch color={colors.neg} dash="5 3" dot />
          F̂ (surrogate)
        </li>
        {swept && (
          <li>
            <LineSwatch color={colors.pos} dot />
            accuracy
          </li>
        )}
        {rec !== null && (
          <li>
            <RuleSwatch color={colors.good} dash="4 4" />
            recommended K = {rec}
          </li>
        )}
        <li>
          <RuleSwatch color={colors.accent} />
          current K
        </li>
      </ul>
      {baselines.length > 0 && (
        <ul className="chart-legend" aria-label="Legend: baselines">
          <li className="legend-title">baselines</li>
          {baselineNames(baselines).map(([name, list]) => {
            const style = baselineStyle(name, colors);
            const title = list
              .map(
                (b) =>
                  `${b.name}: K = ${b.k}, accuracy ${fmtPercent(b.accuracy, 1)}${b.accuracyStd !== undefined ? ` ± ${fmtPercent(b.accuracyStd, 1)}` : ''} (n = ${b.n})`,
              )
              .join('\n');
            return (
              <li key={name} data-baseline={name} title={title}>
                <svg className="legend-swatch" width={14} height={14} viewBox="-7 -7 14 14" aria-hidden="true">
                  <Marker shape={style.shape} color={style.color} size={5} />
                </svg>
                {name}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** Baselines grouped by name, in their first order (one legend entry each). */
function baselineNames(baselines: BudgetData['baselines']): [string, BudgetData['baselines']][] {
  const byName = new Map<string, BudgetData['baselines']>();
  for (const b of baselines) byName.set(b.name, [...(byName.get(b.name) ?? []), b]);
  return [...byName];
}

function LineSwatch({ color, dash, dot }: { color: string; dash?: string; dot?: boolean }) {
  return (
    <svg className="legend-swatch" width={22} height={10} viewBox="0 0 22 10" aria-hidden="true">
      <line x1={1} x2={21} y1={5} y2={5} stroke={color} strokeWidth={2} strokeDasharray={dash} />
      {dot && <circle cx={11} cy={5} r={2.5} fill={color} />}
    </svg>
  );
}

function RuleSwatch({ color, dash }: { color: string; dash?: string }) {
  return (
    <svg className="legend-swatch" width={10} height={14} viewBox="0 0 10 14" aria-hidden="true">
      <line x1={5} x2={5} y1={0} y2={14} stroke={color} strokeWidth={2} strokeDasharray={dash} />
    </svg>
  );
}

/** A baseline's marker, centred on 0,0; `halo` outlines it in the background colour so it stands off lines. */
function Marker({ shape, color, size, halo }: { shape: BaselineShape; color: string; size: number; halo?: string }) {
  const r = size;
  const edge = halo ? { stroke: halo, strokeWidth: 1.5, strokeLinejoin: 'round' as const, paintOrder: 'stroke' as const } : {};
  switch (shape) {
    case 'square':
      return <rect x={-r * 0.85} y={-r * 0.85} width={r * 1.7} height={r * 1.7} fill={color} {...edge} />;
    case 'ring':
      return (
        <>
          {halo && <circle r={r * 0.8} fill="none" stroke={halo} strokeWidth={4} />}
          <circle r={r * 0.8} fill={halo ?? 'none'} stroke={color} strokeWidth={2} />
        </>
      );
    case 'triangle':
      return <path d={`M0 ${-r} L${r * 0.95} ${r * 0.7} L${-r * 0.95} ${r * 0.7} Z`} fill={color} {...edge} />;
    case 'diamond':
      return <path d={`M0 ${-r} L${r} 0 L0 ${r} L${-r} 0 Z`} fill={color} {...edge} />;
    case 'star': {
      const pts: string[] = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 === 0 ? r * 1.15 : r * 0.5;
        pts.push(`${(rr * Math.cos(a)).toFixed(2)},${(rr * Math.sin(a)).toFixed(2)}`);
      }
      return <polygon points={pts.join(' ')} fill={color} {...edge} />;
    }
    default:
      return <circle r={r * 0.8} fill={color} {...edge} />;
  }
}

/**
 * The baselines as markers at (K, accuracy): one shape and colour each (as in the legend); markers that
 * would land on one another (equal K and accuracy, which is common) are spread side by side.
 */
function BaselineMarks({ baselines, colors }: { baselines: BudgetData['baselines']; colors: Colors }) {
  const x = useXAxisScale();
  const y = useYAxisScale('a');
  const area = usePlotArea();
  if (!x || !y || !area) return null;
  const points = baselines.map((b) => ({ b, px: x(b.k), py: y(b.accuracy) }));
  if (points.some((p) => p.px === undefined || p.py === undefined || !Number.isFinite(p.px) || !Number.isFinite(p.py))) return null;
  const placed = baselineLayout(
    points.map((p) => ({ x: p.px!, y: p.py! })),
    { gap: 14, minX: area.x + 6, maxX: area.x + area.width - 6 },
  );
  return (
    // Above the lines and their dots (a marker at the current K would hide behind them), below the hover dot.
    <ZIndexLayer zIndex={DefaultZIndexes.scatter + 50}>
      <g className="baseline-marks">
        {points.map((p, i) => {
          const style = baselineStyle(p.b.name, colors);
          const at = placed[i]!;
          return (
            <g key={`${p.b.name}-${p.b.k}`} transform={`translate(${at.x} ${at.y})`} data-baseline={p.b.name}>
              <title>{`${p.b.name}: K = ${p.b.k}, accuracy ${fmtPercent(p.b.accuracy, 1)}`}</title>
              <Marker shape={style.shape} color={style.color} size={5.5} halo={colors.tooltip.background} />
            </g>
          );
        })}
      </g>
    </ZIndexLayer>
  );
}

const CostChart = memo(function CostChart({ task, budget, data, max, hasPrompt, colors }: ChartProps & { hasPrompt: boolean }) {
  return (
    <div className="card">
      <div className="card-head">
        <h2>Cost against K</h2>
        <span className="sub">
          {hasPrompt ? 'prompt and tool-definition tokens' : `tool-definition tokens${budget.schemaTokensEstimated ? ' (≈ 4 chars/token)' : ''}`}
        </span>
      </div>
      <div className="chart-legends" data-testid="budget-cost-legend">
        <ul className="chart-legend" aria-label="Legend">
          <li>
            <AreaSwatch color={colors.pos} />
            tool-definition tokens
          </li>
          {hasPrompt && (
            <li>
              <LineSwatch color={colors.series3} />
              prompt tokens / request
            </li>
          )}
          <li>
            <LineSwatch color={colors.axis} dash="3 3" />
            keep all {budget.menuSize}: {fmtInt(budget.menuSchemaTokens)}
          </li>
          <li>
            <RuleSwatch color={colors.accent} />
            current K
          </li>
        </ul>
      </div>
      <div className="chart" data-testid="budget-cost-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 14, right: 18, bottom: 18, left: 8 }}>
            <CartesianGrid stroke={colors.grid} />
            <XAxis
              dataKey="k"
              type="number"
              domain={[0, max]}
              allowDecimals={false}
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              label={{ value: 'K (tools kept)', position: 'insideBottom', offset: -10, fontSize: 11, fill: colors.text }}
            />
            <YAxis tick={{ fontSize: 11, fill: colors.text }} stroke={colors.axis} width={56} tickFormatter={(v: number) => fmtInt(v)} />
            <Tooltip contentStyle={colors.tooltip} labelFormatter={(v) => `K = ${Number(v)}`} formatter={(v) => fmtInt(Number(v))} />
            <Area
              type="stepAfter"
              dataKey="schemaTokens"
              name="tool-definition tokens"
              stroke={colors.pos}
              fill={colors.pos}
              fillOpacity={0.15}
              isAnimationActive={false}
            />
            {hasPrompt && (
              <Line
                type="linear"
                dataKey="promptTokens"
                name="prompt tokens / request"
                stroke={colors.series3}
                dot={false}
                strokeWidth={2}
                isAnimationActive={false}
              />
            )}
            <ReferenceLine y={budget.menuSchemaTokens} stroke={colors.axis} strokeDasharray="3 3" />
            <KMarker task={task} max={max} color={colors.accent} label={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
});

function AreaSwatch({ color }: { color: string }) {
  return (
    <svg className="legend-swatch" width={22} height={10} viewBox="0 0 22 10" aria-hidden="true">
      <rect x={1} y={1} width={20} height={8} fill={color} fillOpacity={0.15} stroke={color} strokeWidth={1.5} />
    </svg>
  );
}

function Readout({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="readout">
      <span className="label">{label}</span>
      <span className="value tabular">{value}</span>
      <span className="hint">{hint ?? '\u00a0'}</span>
    </div>
  );
}

function SweepCard({ budget }: { budget: BudgetData }) {
  const startSweep = useStudio((s) => s.startSweep);
  const modelPath = useStudio((s) => s.modelPath);
  const navigate = useStudio((s) => s.navigate);
  return (
    <div className="card" style={{ marginTop: 14 }}>
      <div className="card-head">
        <h2>Budget sweep</h2>
        {budget.sweep && (
          <span className="sub">
            model {budget.sweep.model} · {budget.sweep.createdAt.slice(0, 16).replace('T', ' ')}
          </span>
        )}
      </div>
      {budget.sweep ? (
        <>
          <p className="small text-2">
            Best K by measured fitting accuracy: <strong>{budget.sweep.bestK ?? '—'}</strong> (the smallest K at the highest accuracy; labels are used only
            here).
          </p>
          {budget.baselines.length > 0 && (
            <table className="table small" style={{ marginTop: 8, maxWidth: 720 }}>
              <thead>
                <tr>
                  <th>Baseline</th>
                  <th>requests</th>
                  <th className="num">K</th>
                  <th className="num">accuracy</th>
                  <th className="num">prompt tokens</th>
                </tr>
              </thead>
              <tbody>
                {budget.baselines.map((b) => (
                  <tr key={`${b.name}${b.k}${b.split ?? ''}`}>
                    <td>{b.name}</td>
                    <td className="muted">{b.split === 'eval' ? 'evaluation' : 'fitting'}</td>
                    <td className="num">{b.k}</td>
                    <td className="num">
                      {fmtPercent(b.accuracy, 1)}
                      {b.accuracyStd !== undefined ? ` ± ${fmtPercent(b.accuracyStd, 1)}` : ''}
                    </td>
                    <td className="num">{fmtInt(b.promptTokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : (
        <div className="btn-row">
          <p className="small text-2" style={{ flex: 1, minWidth: 300 }}>
            A sweep re-serves the task's fitting requests under the top-K space for every K and measures accuracy against gold answers. It needs an executor for
            the tools (the built-in benchmark has one) and a model. Until then, the surrogate F̂ previews the curve: it is maximised by the top-K (Theorem 1)
            {budget.fullValue === null ? ', shown relative to the full menu' : ''}.
          </p>
          <button
            className="btn"
            disabled={!modelPath}
            onClick={() => void startSweep({ task: budget.task, model: modelPath })}
            title={modelPath ? undefined : 'Pick a model on the Models view first'}
          >
            Run sweep
          </button>
          {!modelPath && (
            <button className="btn ghost" onClick={() => navigate({ view: 'models' })}>
              Pick a model…
            </button>
          )}
        </div>
      )}
      <p className="muted tiny" style={{ marginTop: 8 }}>
        F̂ at K = {budget.ranking.length}: {fmtSigned(budget.points.at(-1)?.surrogate, 4)} (the full scored menu).
      </p>
    </div>
  );
}
