// The heatmap legend: the diverging square-root scale around 0 with its values at five ticks (the ends
// are the task's largest |I|, so no cell is beyond them), what each colour means, and the three cells
// that carry no score.
import { fmtScore, fmtSignedSmall } from '../format';
import { makePalette, valueAtDepth } from './palette';
import { marksSourceLabel, STATE_GLYPH, STATE_DEFERRED, STATE_HIDDEN, STATE_PINNED, type SpaceMarks } from './space-marks';

export function Legend({ scale, dark, marks, tools }: { scale: number; dark: boolean; marks?: SpaceMarks | null; tools?: readonly string[] }) {
  const pal = makePalette(dark);
  // Depths −1, −½, 0, ½, 1 sit at 0, 25, 50, 75 and 100 % of the bar.
  const ticks = [-1, -0.5, 0, 0.5, 1].map((t) => Math.sign(t) * valueAtDepth(Math.abs(t), scale));
  return (
    <div className="legend" aria-label={`Colour legend: square-root scale from ${end(-scale)} (orange) to ${end(scale)} (blue)`} data-testid="heatmap-legend">
      <span className="legend-scale">
        <span className="legend-bar">
          {pal.buckets.map((c, i) => (
            <span key={i} className="legend-stop" style={{ background: c }} />
          ))}
        </span>
        <span className="legend-ticks tabular" data-testid="legend-ticks">
          {ticks.map((v, i) => (
            <span key={i}>{v === 0 ? '0' : end(v)}</span>
          ))}
        </span>
      </span>
      <span className="legend-meaning tiny">
        <span>
          <span className="swatch" style={{ background: pal.buckets[pal.buckets.length - 1] }} /> blue: the answer relied on the tool's evidence
        </span>
        <span>
          <span className="swatch" style={{ background: pal.buckets[0] }} /> orange: removing it made the answer more likely
        </span>
      </span>
      <span className="legend-item">
        <span className="swatch legend-unexposed" /> not exposed
      </span>
      <span className="legend-item">
        <span className="swatch legend-exposed" /> exposed, no evidence
      </span>
      <span className="legend-item">
        <span className="swatch legend-greyed" /> not pinned at the current K
      </span>
      {marks && (
        <span className="legend-states tiny" data-testid="legend-states" title="each column's tool in the space agents are served (issue 44)">
          <span className="legend-states-source">state in {marksSourceLabel(marks)}:</span>
          {(
            [
              ['pinned', STATE_PINNED, pal.pinned, ` (${marks.pinned.length})`],
              ['deferred', STATE_DEFERRED, pal.deferred, ` (${marks.deferred.length})`],
              ['hidden', STATE_HIDDEN, pal.muted, tools ? ` (${hiddenCount(tools, marks)})` : ''],
            ] as const
          ).map(([name, state, color, count]) => (
            <span key={name} className="legend-state" data-state={name}>
              <span className="legend-glyph" style={{ color }} aria-hidden="true">
                {STATE_GLYPH[state]}
              </span>{' '}
              {name}
              {count}
            </span>
          ))}
        </span>
      )}
    </div>
  );
}

/** The columns neither pinned nor deferred. */
function hiddenCount(tools: readonly string[], marks: SpaceMarks): number {
  const shown = new Set([...marks.pinned, ...marks.deferred]);
  return tools.filter((t) => !shown.has(t)).length;
}

/** A tick's value: two decimals, or two significant digits when that would read 0.00. */
function end(v: number): string {
  return Math.abs(v) >= 0.005 ? fmtScore(v, 2) : fmtSignedSmall(v, 2).replace(/^\+/, '');
}
