// The Budget view's two charts, memoised so a slider move re-renders only the K marker: fitting accuracy
// and the surrogate F̂ against K with the baselines' markers (FitChart), and tool-definition and prompt
// tokens against K (CostChart), with their legends and swatches.
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
import { fmtInt, fmtPercent } from '../format';
import { useStudio } from '../store/react';
import { baselineLabel, baselineLayout, baselineStyle, fmtAxisScore, tickDigits, type BaselineShape } from './budget-chart';
import type { useChartColors } from './chart-colors';
import { drawsInterval, niceTicks } from './budget-stats';

export type Colors = ReturnType<typeof useChartColors>;
/** A budget point with the Wilson 95% band of its measured accuracy (issue 40), null where not measured,
 * and the menu's cost with the proposal's deferred tools demoted beside the pinned ones (issue 44). */
export type ChartPoint = BudgetData['points'][number] & { band: [number, number] | null; withDeferred: number };

/**
 * The current K, drawn by itself inside a chart: a slider move re-renders this marker only, never the
 * curves (which are memoised), so the preview keeps up with the slider.
 */
/** The K axis both charts share (an element, not a component: Recharts reads its children's types). */
function kAxis(max: number, colors: Colors) {
  return (
    <XAxis
      dataKey="k"
      type="number"
      domain={[0, max]}
      allowDecimals={false}
      tick={{ fontSize: 11, fill: colors.text }}
      stroke={colors.axis}
      label={{ value: 'K (tools kept)', position: 'insideBottom', offset: -10, fontSize: 11, fill: colors.text }}
    />
  );
}

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

/**
 * One quantity against K per chart (issue 40: a log-likelihood and an accuracy never share a plot):
 * `accuracy` is the measured fitting accuracy with its Wilson 95% band and the baselines' markers,
 * `surrogate` the additive surrogate F̂.
 */
export const FitChart = memo(function FitChart({
  task,
  budget,
  data,
  max,
  mode,
  baselines,
  colors,
}: ChartProps & { mode: 'accuracy' | 'surrogate'; baselines: BudgetData['baselines'] }) {
  const rec = budget.recommendedK;
  const accuracy = mode === 'accuracy';
  const marks = accuracy ? baselines : [];
  const digits = useMemo(() => tickDigits(data.map((p) => p.surrogate)), [data]);
  const n = data.find((p) => p.n !== null)?.n;
  return (
    <div className="card">
      <div className="card-head">
        <h2>{accuracy ? 'Fitting accuracy against K' : 'Surrogate F̂ against K'}</h2>
        <span className="sub">
          {accuracy ? `measured on ${n ?? 'the'} fitting requests · band: 95% Wilson interval` : 'mean log-likelihood of the kept evidence, from the scores'}
        </span>
      </div>
      <FitLegend mode={mode} rec={rec} baselines={marks} colors={colors} />
      <div className="chart" data-testid={accuracy ? 'budget-fit-chart' : 'budget-surrogate-chart'}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 14, right: 18, bottom: 18, left: 8 }}>
            <CartesianGrid stroke={colors.grid} />
            {kAxis(max, colors)}
            {accuracy ? (
              <YAxis
                yAxisId="a"
                domain={[0, 1]}
                ticks={[0, 0.25, 0.5, 0.75, 1]}
                tickFormatter={(v: number) => fmtPercent(v)}
                tick={{ fontSize: 11, fill: colors.text }}
                stroke={colors.axis}
                width={44}
                padding={Y_PADDING}
              />
            ) : (
              <YAxis
                yAxisId="s"
                tick={{ fontSize: 11, fill: colors.text }}
                stroke={colors.axis}
                tickFormatter={(v: number) => fmtAxisScore(v, digits)}
                width={56}
                domain={['auto', 'auto']}
                padding={Y_PADDING}
              />
            )}
            <Tooltip
              contentStyle={colors.tooltip}
              labelFormatter={(v) => `K = ${Number(v)}`}
              formatter={(v, name) =>
                name === 'accuracy'
                  ? fmtPercent(Number(v), 1)
                  : name === '95% interval' && Array.isArray(v)
                    ? `[${fmtPercent(Number(v[0]))}, ${fmtPercent(Number(v[1]))}]`
                    : fmtAxisScore(Number(v), Math.max(4, digits))
              }
            />
            {!accuracy && (
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
            )}
            {accuracy && (
              <Area
                yAxisId="a"
                type="linear"
                dataKey="band"
                name="95% interval"
                stroke="none"
                fill={colors.pos}
                fillOpacity={0.15}
                connectNulls
                isAnimationActive={false}
              />
            )}
            {accuracy && (
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
            {rec !== null && <ReferenceLine yAxisId={accuracy ? 'a' : 's'} x={rec} stroke={colors.good} strokeDasharray="4 4" />}
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
function FitLegend({
  mode,
  rec,
  baselines,
  colors,
}: {
  mode: 'accuracy' | 'surrogate';
  rec: number | null;
  baselines: BudgetData['baselines'];
  colors: Colors;
}) {
  return (
    <div className="chart-legends" data-testid={mode === 'accuracy' ? 'budget-fit-legend' : 'budget-surrogate-legend'}>
      <ul className="chart-legend" aria-label="Legend: curves">
        {mode === 'surrogate' ? (
          <li>
            <LineSwatch color={colors.neg} dash="5 3" dot />
            F̂ (surrogate)
          </li>
        ) : (
          <>
            <li>
              <LineSwatch color={colors.pos} dot />
              accuracy
            </li>
            <li>
              <AreaSwatch color={colors.pos} />
              95% interval
            </li>
          </>
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
            const title = list.map((b) => `${baselineLabel(b.name)}: K = ${b.k}, accuracy ${fmtBaselineAccuracy(b)} (n = ${b.n})`).join('\n');
            return (
              <li key={name} data-baseline={name} title={title}>
                <svg className="legend-swatch" width={14} height={14} viewBox="-7 -7 14 14" aria-hidden="true">
                  <Marker shape={style.shape} color={style.color} size={5} />
                </svg>
                {baselineLabel(name)}
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

/** The outline of an open marker (drawn as a stroke), centred on 0,0. */
function openPath(shape: 'open-square' | 'open-diamond' | 'open-star' | 'open-triangle' | 'open-triangle-down', r: number): string {
  const s = r * 0.8;
  switch (shape) {
    case 'open-square':
      return `M${-s} ${-s} H${s} V${s} H${-s} Z`;
    case 'open-diamond':
      return `M0 ${-r} L${r} 0 L0 ${r} L${-r} 0 Z`;
    case 'open-triangle':
      return `M0 ${-r} L${r * 0.95} ${r * 0.7} L${-r * 0.95} ${r * 0.7} Z`;
    case 'open-triangle-down':
      return `M0 ${r} L${r * 0.95} ${-r * 0.7} L${-r * 0.95} ${-r * 0.7} Z`;
    case 'open-star': {
      const pts: string[] = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const rr = i % 2 === 0 ? r * 1.15 : r * 0.5;
        pts.push(`${(rr * Math.cos(a)).toFixed(2)} ${(rr * Math.sin(a)).toFixed(2)}`);
      }
      return `M${pts.join(' L')} Z`;
    }
  }
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
    case 'triangle-down':
      return <path d={`M0 ${r} L${r * 0.95} ${-r * 0.7} L${-r * 0.95} ${-r * 0.7} Z`} fill={color} {...edge} />;
    case 'hexagon': {
      const pts = Array.from({ length: 6 }, (_, i) => {
        const a = (i * Math.PI) / 3;
        return `${(r * 0.95 * Math.cos(a)).toFixed(2)},${(r * 0.95 * Math.sin(a)).toFixed(2)}`;
      });
      return <polygon points={pts.join(' ')} fill={color} {...edge} />;
    }
    case 'plus':
    case 'cross': {
      // A filled plus (turned 45° for the cross), so it takes the halo and its box is its own size.
      const w = r * 0.32;
      const a = shape === 'cross' ? r * 0.8 : r;
      const plus = [
        `${-w},${-a}`,
        `${w},${-a}`,
        `${w},${-w}`,
        `${a},${-w}`,
        `${a},${w}`,
        `${w},${w}`,
        `${w},${a}`,
        `${-w},${a}`,
        `${-w},${w}`,
        `${-a},${w}`,
        `${-a},${-w}`,
        `${-w},${-w}`,
      ];
      const turn = shape === 'cross' ? 'rotate(45)' : undefined;
      return <polygon points={plus.join(' ')} fill={color} transform={turn} {...edge} />;
    }
    case 'open-square':
    case 'open-diamond':
    case 'open-star':
    case 'open-triangle':
    case 'open-triangle-down': {
      const d = openPath(shape, r);
      return (
        <>
          {halo && <path d={d} fill="none" stroke={halo} strokeWidth={4} strokeLinejoin="round" />}
          <path d={d} fill={halo ?? 'none'} stroke={color} strokeWidth={2} strokeLinejoin="round" />
        </>
      );
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
    { gap: 17, minX: area.x + 6, maxX: area.x + area.width - 6 },
  );
  return (
    // Above the lines and their dots (a marker at the current K would hide behind them), below the hover dot.
    // (gap 17: the widest marker, a star with its halo, is about 16 px across.)
    <ZIndexLayer zIndex={DefaultZIndexes.scatter + 50}>
      <g className="baseline-marks">
        {points.map((p, i) => {
          const style = baselineStyle(p.b.name, colors);
          const at = placed[i]!;
          return (
            <g key={`${p.b.name}-${p.b.k}`} transform={`translate(${at.x} ${at.y})`} data-baseline={p.b.name}>
              <title>{`${baselineLabel(p.b.name)}: K = ${p.b.k}, accuracy ${fmtPercent(p.b.accuracy, 1)}`}</title>
              <Marker shape={style.shape} color={style.color} size={5.5} halo={colors.tooltip.background} />
            </g>
          );
        })}
      </g>
    </ZIndexLayer>
  );
}

export const CostChart = memo(function CostChart({ task, budget, data, max, hasPrompt, colors }: ChartProps & { hasPrompt: boolean }) {
  // Round ticks (0, 100, 200 …), up to the largest of the curves and the keep-all line.
  const ticks = useMemo(
    () => niceTicks(Math.max(budget.menuSchemaTokens, ...data.map((p) => Math.max(p.schemaTokens, p.withDeferred, p.promptTokens ?? 0)))),
    [budget.menuSchemaTokens, data],
  );
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
            pinned only (top K in full)
          </li>
          <li>
            <LineSwatch color={colors.pos} dash="6 3" />
            pinned + rest deferred (demoted)
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
            {kAxis(max, colors)}
            <YAxis
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              width={56}
              ticks={ticks}
              domain={[0, ticks.at(-1) ?? 'auto']}
              tickFormatter={(v: number) => fmtInt(v)}
            />
            <Tooltip contentStyle={colors.tooltip} labelFormatter={(v) => `K = ${Number(v)}`} formatter={(v) => fmtInt(Number(v))} />
            <Area
              type="stepAfter"
              dataKey="schemaTokens"
              name="pinned only"
              stroke={colors.pos}
              fill={colors.pos}
              fillOpacity={0.15}
              isAnimationActive={false}
            />
            <Line
              type="stepAfter"
              dataKey="withDeferred"
              name="pinned + deferred (demoted)"
              stroke={colors.pos}
              strokeDasharray="6 3"
              dot={false}
              strokeWidth={2}
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

/** A baseline's accuracy; a random baseline's as the 95% interval of its mean over the draws, "[lo, hi]" like every other interval. */
export function fmtBaselineAccuracy(b: BudgetData['baselines'][number]): string {
  if (b.accuracyStd === undefined) return fmtPercent(b.accuracy, 1);
  const ci = drawsInterval(b.accuracy, b.accuracyStd, b.draws ?? 1);
  return `${fmtPercent(b.accuracy, 1)} [${fmtPercent(ci.lo, 1)}, ${fmtPercent(ci.hi, 1)}]`;
}
