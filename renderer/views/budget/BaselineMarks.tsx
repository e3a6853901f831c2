// The baselines drawn as markers at (K, accuracy) inside the fit chart, spread where they would overlap.
import { DefaultZIndexes, ZIndexLayer, usePlotArea, useXAxisScale, useYAxisScale } from 'recharts';
import type { BudgetData } from '../../../shared/api';
import { fmtPercent } from '../../format';
import { baselineLabel, baselineLayout, baselineStyle } from '../budget-chart';
import { Marker } from './BaselineMarker';
import type { Colors } from './chart-parts';

/**
 * The baselines as markers at (K, accuracy): one shape and colour each (as in the legend); markers that
 * would land on one another (equal K and accuracy, which is common) are spread side by side.
 */
export function BaselineMarks({ baselines, colors }: { baselines: BudgetData['baselines']; colors: Colors }) {
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
