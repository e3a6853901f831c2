// The Budget view's fit chart: measured fitting accuracy (with its band and the baselines) or the surrogate F̂ against K.
import { memo, useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { BudgetData } from '../../../shared/api';
import { fmtPercent } from '../../format';
import { fmtAxisScore, tickDigits } from '../budget-chart';
import { BaselineMarks } from './BaselineMarks';
import { KMarker, Y_PADDING, kAxis, type ChartProps } from './chart-parts';
import { FitLegend } from './FitLegend';

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
