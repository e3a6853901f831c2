// The diverging colour scale of I_x(s): blue for evidence the answer relied on (positive), orange for
// evidence whose removal made the answer more likely (negative), a neutral at exactly 0; square-root
// depth up to the task's largest |I|, so it never saturates. Blue/orange
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
  /** The state marks of the column headers (space-marks.ts): pinned, deferred. */
  pinned: string;
  deferred: string;
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
    // Linear in the bucket: the square root in bucketOf already lifts small scores off the neutral.
    const t = Math.abs(i) / BUCKETS_PER_SIDE;
    buckets.push(i === 0 ? mix(zero, zero, 0) : mix(zero, i > 0 ? POSITIVE : NEGATIVE, t));
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
        pinned: '#4caf7d',
        deferred: '#79b0e4',
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
        pinned: '#2e8b57',
        deferred: '#2166ac',
      };
}

/**
 * Bucket index of a value on a symmetric square-root scale up to ±scale (issue 40): the colour's depth
 * grows with √(|I| / scale), so small scores stay visible and, with `scale` the largest |I| of the task,
 * nothing saturates: the strongest cell alone is the deepest colour, a cell at a quarter of it is half
 * as deep. Values beyond ±scale (a scale chosen elsewhere) are clamped.
 */
export function bucketOf(value: number, scale: number): number {
  if (!(scale > 0) || value === 0) return BUCKETS_PER_SIDE;
  const t = Math.sqrt(Math.min(1, Math.abs(value) / scale));
  const i = Math.round(t * BUCKETS_PER_SIDE);
  // A nonzero score never lands on the neutral colour: zero must look different from "tiny".
  return BUCKETS_PER_SIDE + Math.sign(value) * Math.max(1, i);
}

/** The value at depth `t` ∈ [0, 1] of the scale (the inverse of bucketOf's square root), for the legend's ticks. */
export function valueAtDepth(t: number, scale: number): number {
  return t * t * scale;
}
