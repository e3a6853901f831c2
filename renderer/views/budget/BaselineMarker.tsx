// A baseline's marker shape (filled, open or ringed), centred on 0,0, for the fit chart and its legend.
import type { BaselineShape } from '../budget-chart';

/** The outline of an open marker (drawn as a stroke), centred on 0,0. */
function openPath(
  shape: 'open-square' | 'open-diamond' | 'open-star' | 'open-triangle' | 'open-triangle-down' | 'open-hexagon' | 'open-bar',
  r: number,
): string {
  const s = r * 0.8;
  switch (shape) {
    case 'open-bar':
      return `M${-r} ${-r * 0.35} H${r} V${r * 0.35} H${-r} Z`;
    case 'open-square':
      return `M${-s} ${-s} H${s} V${s} H${-s} Z`;
    case 'open-diamond':
      return `M0 ${-r} L${r} 0 L0 ${r} L${-r} 0 Z`;
    case 'open-triangle':
      return `M0 ${-r} L${r * 0.95} ${r * 0.7} L${-r * 0.95} ${r * 0.7} Z`;
    case 'open-triangle-down':
      return `M0 ${r} L${r * 0.95} ${-r * 0.7} L${-r * 0.95} ${-r * 0.7} Z`;
    case 'open-hexagon': {
      const pts = Array.from(
        { length: 6 },
        (_, i) => `${(r * 0.95 * Math.cos((i * Math.PI) / 3)).toFixed(2)} ${(r * 0.95 * Math.sin((i * Math.PI) / 3)).toFixed(2)}`,
      );
      return `M${pts.join(' L')} Z`;
    }
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

/** A regular polygon's corners, the first pointing up. */
function polygon(sides: number, r: number): string[] {
  return Array.from({ length: sides }, (_, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / sides;
    return `${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
  });
}

/** A bow tie's outline: two triangles meeting at the centre, their bases upright. */
function bowtiePoints(r: number): string[] {
  const h = r * 0.85;
  return [`${-r} ${-h}`, '0 0', `${r} ${-h}`, `${r} ${h}`, '0 0', `${-r} ${h}`];
}

/** A plus's outline (turned 45° for a cross is the caller's transform). */
function plusPoints(r: number, a: number): string[] {
  const w = r * 0.32;
  return [
    `${-w} ${-a}`,
    `${w} ${-a}`,
    `${w} ${-w}`,
    `${a} ${-w}`,
    `${a} ${w}`,
    `${w} ${w}`,
    `${w} ${a}`,
    `${-w} ${a}`,
    `${-w} ${w}`,
    `${-a} ${w}`,
    `${-a} ${-w}`,
    `${-w} ${-w}`,
  ];
}

/** A baseline's marker, centred on 0,0; `halo` outlines it in the background colour so it stands off lines. */
export function Marker({ shape, color, size, halo }: { shape: BaselineShape; color: string; size: number; halo?: string }) {
  const r = size;
  const edge = halo ? { stroke: halo, strokeWidth: 1.5, strokeLinejoin: 'round' as const, paintOrder: 'stroke' as const } : {};
  switch (shape) {
    case 'square':
      return <rect x={-r * 0.85} y={-r * 0.85} width={r * 1.7} height={r * 1.7} fill={color} {...edge} />;
    case 'bar':
      // A minus sign: LOTS's space less one tool (the deletion ablation).
      return <rect x={-r} y={-r * 0.35} width={r * 2} height={r * 0.7} fill={color} {...edge} />;
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
    case 'open-triangle-down':
    case 'open-hexagon':
    case 'open-bar': {
      const d = openPath(shape, r);
      return (
        <>
          {halo && <path d={d} fill="none" stroke={halo} strokeWidth={4} strokeLinejoin="round" />}
          <path d={d} fill={halo ?? 'none'} stroke={color} strokeWidth={2} strokeLinejoin="round" />
        </>
      );
    }
    case 'pentagon':
      return <path d={`M${polygon(5, r).join(' L')} Z`} fill={color} {...edge} />;
    case 'bowtie':
      return <path d={`M${bowtiePoints(r).join(' L')} Z`} fill={color} {...edge} />;
    case 'open-pentagon':
    case 'open-bowtie':
    case 'open-plus':
    case 'open-cross': {
      const d =
        shape === 'open-pentagon'
          ? `M${polygon(5, r).join(' L')} Z`
          : shape === 'open-bowtie'
            ? `M${bowtiePoints(r).join(' L')} Z`
            : `M${plusPoints(r, shape === 'open-cross' ? r * 0.8 : r).join(' L')} Z`;
      const turn = shape === 'open-cross' ? 'rotate(45)' : undefined;
      return (
        <>
          {halo && <path d={d} fill="none" stroke={halo} strokeWidth={4} strokeLinejoin="round" transform={turn} />}
          <path d={d} fill={halo ?? 'none'} stroke={color} strokeWidth={2} strokeLinejoin="round" transform={turn} />
        </>
      );
    }
    default:
      return <circle r={r * 0.8} fill={color} {...edge} />;
  }
}
