// The running-score lines' colours, dash patterns and markers (MarkerShape), one set per line.

export const LINE_COLORS = ['#2166ac', '#d66018', '#2e8b57', '#7b4fa0', '#9a6a00', '#c2185b', '#00838f', '#5d4037'];
/** Per line a dash pattern and a marker besides its colour (issue 40: lines that run together stay apart). */
export const LINE_DASHES = ['', '7 3', '2 3', '9 3 2 3', '4 4', '1 2', '12 4', '5 2 1 2'];
export const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'triangle-down', 'circle-open', 'square-open'] as const;
type Marker = (typeof MARKERS)[number];

export function MarkerShape({ cx, cy, marker, color }: { cx?: number; cy?: number; marker: Marker; color: string }) {
  if (cx === undefined || cy === undefined || !Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  const r = 3.5;
  const filled = { fill: color, stroke: color };
  switch (marker) {
    case 'square':
      return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} {...filled} />;
    case 'square-open':
      return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} fill="var(--surface)" stroke={color} strokeWidth={1.5} />;
    case 'triangle':
      return <path d={`M${cx},${cy - r - 1}L${cx + r + 0.5},${cy + r}L${cx - r - 0.5},${cy + r}Z`} {...filled} />;
    case 'triangle-down':
      return <path d={`M${cx},${cy + r + 1}L${cx + r + 0.5},${cy - r}L${cx - r - 0.5},${cy - r}Z`} {...filled} />;
    case 'diamond':
      return <path d={`M${cx},${cy - r - 1}L${cx + r + 1},${cy}L${cx},${cy + r + 1}L${cx - r - 1},${cy}Z`} {...filled} />;
    case 'cross':
      return <path d={`M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`} stroke={color} strokeWidth={2} />;
    case 'circle-open':
      return <circle cx={cx} cy={cy} r={r} fill="var(--surface)" stroke={color} strokeWidth={1.5} />;
    default:
      return <circle cx={cx} cy={cy} r={r} {...filled} />;
  }
}
