// The fit chart's legend: its curves, the recommended and current K, and the baselines by name.
import type { BudgetData } from '../../../shared/api';
import { baselineLabel, baselineStyle } from '../budget-chart';
import { Marker } from './BaselineMarker';
import type { Colors } from './chart-parts';
import { fmtBaselineAccuracy } from './fmt-baseline';
import { AreaSwatch, LineSwatch, RuleSwatch } from './Swatches';

/**
 * The fit chart's legend, outside the SVG so it wraps instead of overlapping: every line and reference
 * drawn in the chart, each with its own stroke or marker, and the baselines by name (the chart itself
 * carries no baseline text, so nothing can be drawn over anything else).
 */
export function FitLegend({
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
