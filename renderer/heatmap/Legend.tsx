// The heatmap legend: the diverging scale around 0 and the two cells that carry no score.
import { fmtScore, fmtSignedSmall } from '../format';
import { BUCKETS_PER_SIDE, makePalette } from './palette';

export function Legend({ scale, dark }: { scale: number; dark: boolean }) {
  const pal = makePalette(dark);
  const stops = pal.buckets.filter((_, i) => i % 4 === 0 || i === BUCKETS_PER_SIDE || i === pal.buckets.length - 1);
  return (
    <div className="legend" aria-label="Colour legend" data-testid="heatmap-legend">
      <span className="legend-end tabular">≤ {end(-scale)}</span>
      <span className="legend-bar">
        {stops.map((c, i) => (
          <span key={i} className="legend-stop" style={{ background: c }} />
        ))}
      </span>
      <span className="legend-end tabular">≥ {end(scale)}</span>
      <span className="legend-zero muted tiny">0 at the centre · blue: the answer relied on the tool's evidence</span>
      <span className="legend-item">
        <span className="swatch legend-unexposed" /> not exposed
      </span>
      <span className="legend-item">
        <span className="swatch legend-exposed" /> exposed, no evidence
      </span>
      <span className="legend-item">
        <span className="swatch legend-greyed" /> outside the space
      </span>
    </div>
  );
}

/** The scale's ends: two decimals, or two significant digits when that would read 0.00. */
function end(v: number): string {
  return Math.abs(v) >= 0.005 ? fmtScore(v, 2) : fmtSignedSmall(v, 2).replace(/^\+/, '');
}
