// The Budget view's cost chart: tool-definition and prompt tokens against K, against the keep-all line.
import { memo, useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import { fmtInt } from '../../format';
import { niceTicks } from '../budget-stats';
import { KMarker, kAxis, type ChartProps } from './chart-parts';
import { AreaSwatch, LineSwatch, RuleSwatch } from './Swatches';

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
