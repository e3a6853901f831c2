// The diverging colour scale of I_x(s): blue for evidence the answer relied on (positive), orange for
// evidence whose removal made the answer more likely (negative), a neutral at exactly 0. Blue/orange
// stays distinguishable for the common colour-vision deficiencies. Quantised so a frame sets each
// fillStyle once per bucket, not once per cell.

export const BUCKETS_PER_SIDE = 24;

export interface Palette {
  /** 2·BUCKETS_PER_SIDE + 1 CSS colours, index BUCKETS_PER_SIDE is zero. */
  buckets: string[];
  zero: string;
  background: string;
  unexposed: string;
  unexposedLine: string;
  exposed: string;
  exposedDot: string;
  grid: string;
  text: string;
  muted: string;
  header: string;
  greyOverlay: string;
  cursor: string;
  hover: string;
  correct: string;
  wrong: string;
}

type Rgb = [number, number, number];

const POSITIVE: Rgb = [33, 102, 172];
const NEGATIVE: Rgb = [214, 96, 24];

function mix(a: Rgb, b: Rgb, t: number): string {
  const c = a.map((v, i) => Math.round(v + (b[i]! - v) * t));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export function makePalette(dark: boolean): Palette {
  const zero: Rgb = dark ? [52, 56, 64] : [244, 244, 242];
  const buckets: string[] = [];
  for (let i = -BUCKETS_PER_SIDE; i <= BUCKETS_PER_SIDE; i++) {
    const t = Math.abs(i) / BUCKETS_PER_SIDE;
    // A gamma below 1 lifts small scores off the neutral so they stay visible.
    const eased = Math.pow(t, 0.75);
    buckets.push(i === 0 ? mix(zero, zero, 0) : mix(zero, i > 0 ? POSITIVE : NEGATIVE, eased));
  }
  return dark
    ? {
        buckets,
        zero: mix(zero, zero, 0),
        background: '#1b1d22',
        unexposed: '#1b1d22',
        unexposedLine: '#3a3e47',
        exposed: '#262930',
        exposedDot: '#5b616d',
        grid: '#2a2d34',
        text: '#e6e6e3',
        muted: '#8d929b',
        header: '#1f2126',
        greyOverlay: 'rgba(21,23,28,0.8)',
        cursor: '#ffd166',
        hover: '#ffffff',
        correct: '#4caf7d',
        wrong: '#e5604d',
      }
    : {
        buckets,
        zero: mix(zero, zero, 0),
        background: '#ffffff',
        unexposed: '#ffffff',
        unexposedLine: '#cfd2d6',
        exposed: '#e6e7ea',
        exposedDot: '#9aa0a8',
        grid: '#ececec',
        text: '#1d1f23',
        muted: '#6b7079',
        header: '#fafaf8',
        greyOverlay: 'rgba(238,238,234,0.84)',
        cursor: '#c78a00',
        hover: '#111111',
        correct: '#2e8b57',
        wrong: '#c8412f',
      };
}

/** Bucket index of a value on a symmetric scale ±scale (clamped). */
export function bucketOf(value: number, scale: number): number {
  if (!(scale > 0) || value === 0) return BUCKETS_PER_SIDE;
  const t = Math.max(-1, Math.min(1, value / scale));
  const i = Math.round(t * BUCKETS_PER_SIDE);
  // A nonzero score never lands on the neutral colour: zero must look different from "tiny".
  return BUCKETS_PER_SIDE + (i === 0 ? Math.sign(t) : i);
}
