// The chart legends' swatches: a line, a vertical rule and an area.

export function LineSwatch({ color, dash, dot }: { color: string; dash?: string; dot?: boolean }) {
  return (
    <svg className="legend-swatch" width={22} height={10} viewBox="0 0 22 10" aria-hidden="true">
      <line x1={1} x2={21} y1={5} y2={5} stroke={color} strokeWidth={2} strokeDasharray={dash} />
      {dot && <circle cx={11} cy={5} r={2.5} fill={color} />}
    </svg>
  );
}

export function RuleSwatch({ color, dash }: { color: string; dash?: string }) {
  return (
    <svg className="legend-swatch" width={10} height={14} viewBox="0 0 10 14" aria-hidden="true">
      <line x1={5} x2={5} y1={0} y2={14} stroke={color} strokeWidth={2} strokeDasharray={dash} />
    </svg>
  );
}

export function AreaSwatch({ color }: { color: string }) {
  return (
    <svg className="legend-swatch" width={22} height={10} viewBox="0 0 22 10" aria-hidden="true">
      <rect x={1} y={1} width={20} height={8} fill={color} fillOpacity={0.15} stroke={color} strokeWidth={1.5} />
    </svg>
  );
}
