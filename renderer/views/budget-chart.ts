// How the Budget view draws its fit chart: one marker shape and colour per baseline (the legend shows
// the same), a layout that spreads markers which would land on one another, and tick precision.
// Pure, so it is tested without a browser.

import { selectionMethod } from '../../shared/selection/registry';

export type BaselineShape =
  | 'square'
  | 'ring'
  | 'triangle'
  | 'diamond'
  | 'star'
  | 'dot'
  | 'triangle-down'
  | 'hexagon'
  | 'plus'
  | 'cross'
  | 'open-square'
  | 'open-diamond'
  | 'open-star'
  | 'open-triangle'
  | 'open-triangle-down'
  | 'open-hexagon'
  | 'pentagon'
  | 'open-pentagon'
  | 'bowtie'
  | 'open-bowtie'
  | 'open-plus'
  | 'open-cross'
  | 'bar'
  | 'open-bar';

interface BaselineColors {
  text: string;
  warn: string;
  series3: string;
  good: string;
  axis: string;
  pos: string;
  neg: string;
}

export interface BaselineStyle {
  shape: BaselineShape;
  color: string;
}

/** Every method of the selection registry gets its own style — the free baselines filled shapes, the
 * embedding baselines (Dense, Tool2Vec) blue, the LLM-asking ones (router, trace judge) orange strokes,
 * the label-using searches (TTO†, Beam†) open shapes, the reference rows (the oracle, LOTS at a fixed K) open
 * shapes in LOTS's colour, Table 9's fixed-K rankings pentagons, bow ties (two triangles point to point; an octagon read as a dot at this size) and open crosses in their base method's colour, the deletion ablation minus signs (LOTS less its top tool filled, less a random one open) — and any other name a filled dot in the axis colour. */
export function baselineStyle(name: string, colors: BaselineColors): BaselineStyle {
  switch (name) {
    case 'keep-all':
      return { shape: 'square', color: colors.text };
    case 'no-tools':
      return { shape: 'ring', color: colors.text };
    case 'random':
      return { shape: 'triangle', color: colors.warn };
    case 'bm25':
      return { shape: 'diamond', color: colors.series3 };
    case 'lots':
      return { shape: 'star', color: colors.good };
    case 'dense':
      return { shape: 'triangle-down', color: colors.pos };
    case 'tool2vec':
      return { shape: 'hexagon', color: colors.pos };
    case 'router':
      return { shape: 'plus', color: colors.neg };
    case 'trace-judge':
      return { shape: 'cross', color: colors.neg };
    case 'tto':
      return { shape: 'open-square', color: colors.series3 };
    case 'beam':
      return { shape: 'open-diamond', color: colors.series3 };
    case 'oracle':
      return { shape: 'open-star', color: colors.good };
    case 'lots-k2':
      return { shape: 'open-triangle', color: colors.good };
    case 'lots-k4':
      return { shape: 'open-triangle-down', color: colors.good };
    case 'lots-deferred':
      return { shape: 'open-hexagon', color: colors.good };
    case 'dense-k2':
      return { shape: 'pentagon', color: colors.pos };
    case 'dense-k4':
      return { shape: 'open-pentagon', color: colors.pos };
    case 'tool2vec-k2':
      return { shape: 'bowtie', color: colors.pos };
    case 'tool2vec-k4':
      return { shape: 'open-bowtie', color: colors.pos };
    case 'random-k2':
      return { shape: 'open-plus', color: colors.warn };
    case 'random-k4':
      return { shape: 'open-cross', color: colors.warn };
    case 'lots-drop-top':
      return { shape: 'bar', color: colors.good };
    case 'lots-drop-random':
      return { shape: 'open-bar', color: colors.warn };
    default:
      return { shape: 'dot', color: colors.axis };
  }
}

/** A method's name as the comparison table and report write it (the registry's label: "LLM router",
 * "TTO†"); an unknown name as it is. */
export function baselineLabel(name: string): string {
  return selectionMethod(name)?.label ?? name;
}

export interface Point {
  x: number;
  y: number;
}

export interface LayoutOptions {
  /** Centre-to-centre distance below which two markers collide, and the spacing they get. */
  gap: number;
  /** Where marker centres may go horizontally (the plot area, inset). */
  minX: number;
  maxX: number;
}

/**
 * Marker positions: each keeps its y; markers that collide (closer than `gap` on both axes, directly or
 * through a chain) are set side by side, `gap` apart, centred on their mean x and kept inside
 * [minX, maxX]. The order within a group follows x, then the input order, so the result is stable.
 */
export function baselineLayout(points: readonly Point[], o: LayoutOptions): Point[] {
  interface Group {
    members: number[];
    start: number;
    minY: number;
    maxY: number;
  }
  const place = (members: number[]): Group => {
    members.sort((a, b) => points[a]!.x - points[b]!.x || a - b);
    const mean = members.reduce((s, i) => s + points[i]!.x, 0) / members.length;
    const width = (members.length - 1) * o.gap;
    let start = mean - width / 2;
    if (start + width > o.maxX) start = o.maxX - width;
    if (start < o.minX) start = o.minX;
    const ys = members.map((i) => points[i]!.y);
    return { members, start, minY: Math.min(...ys), maxY: Math.max(...ys) };
  };
  const end = (g: Group) => g.start + (g.members.length - 1) * o.gap;
  const collide = (a: Group, b: Group) => a.minY - b.maxY < o.gap && b.minY - a.maxY < o.gap && a.start - end(b) < o.gap && b.start - end(a) < o.gap;

  let groups = points.map((_, i) => place([i]));
  for (let merged = true; merged && groups.length > 1;) {
    merged = false;
    outer: for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        if (collide(groups[i]!, groups[j]!)) {
          const next = place([...groups[i]!.members, ...groups[j]!.members]);
          groups = groups.filter((_, k) => k !== i && k !== j);
          groups.push(next);
          merged = true;
          break outer;
        }
      }
    }
  }
  const out: Point[] = points.map((p) => ({ ...p }));
  for (const g of groups) g.members.forEach((m, k) => (out[m]!.x = g.start + k * o.gap));
  return out;
}

/** Decimals that tell the F̂ ticks apart (a random-weight model's F̂ can span 1e-6). */
export function tickDigits(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return 2;
  const span = Math.max(...finite) - Math.min(...finite);
  if (!(span > 0)) return 2;
  // Recharts puts about five ticks on the axis: resolve a quarter of the span.
  return Math.min(8, Math.max(2, Math.ceil(-Math.log10(span / 4))));
}

const MINUS = '\u2212';

/** An F̂ tick: fixed decimals up to 4, beyond that two significant digits as 8.0e−7. */
export function fmtAxisScore(v: number, digits: number): string {
  if (!Number.isFinite(v)) return '';
  if (digits <= 4) {
    const s = Math.abs(v).toFixed(digits);
    return v < 0 && !/^0\.?0*$/.test(s) ? MINUS + s : s;
  }
  if (v === 0) return '0';
  return v.toExponential(1).replace(/-/g, MINUS).replace('e+', 'e');
}
