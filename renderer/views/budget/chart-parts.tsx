// What the Budget view's charts share: the chart point and colour types, the K axis, the current-K marker, the Y padding.
import { XAxis, usePlotArea, useXAxisScale } from 'recharts';
import type { BudgetData } from '../../../shared/api';
import { useStudio } from '../../store/react';
import type { useChartColors } from '../chart-colors';

export type Colors = ReturnType<typeof useChartColors>;
/** A budget point with the Wilson 95% band of its measured accuracy (issue 40), null where not measured,
 * and the menu's cost with the proposal's deferred tools demoted beside the pinned ones (issue 44). */
export type ChartPoint = BudgetData['points'][number] & { band: [number, number] | null; withDeferred: number };

/** The K axis both charts share (an element, not a component: Recharts reads its children's types). */
export function kAxis(max: number, colors: Colors) {
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

/**
 * The current K, drawn by itself inside a chart: a slider move re-renders this marker only, never the
 * curves (which are memoised), so the preview keeps up with the slider.
 */
export function KMarker({ task, max, color, label }: { task: string; max: number; color: string; label: boolean }) {
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

export interface ChartProps {
  task: string;
  budget: BudgetData;
  data: ChartPoint[];
  max: number;
  colors: Colors;
}

/** Room between the axes and a value at the end of the domain (a baseline at 0 % sits above the K axis). */
export const Y_PADDING = { top: 8, bottom: 10 };
