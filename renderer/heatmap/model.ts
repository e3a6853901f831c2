// The heatmap's data model, outside React (docs/CONVENTIONS.md §6): typed arrays for cells, a row permutation
// for the current filter and sort, a column mask for tools outside the current space. Views read it;
// the canvas renderer draws from it; nothing here allocates per frame.
import { CELL_SCORED, decodeFloat32, decodeUint8, type HeatmapData, type HeatmapRequest } from '../../shared/api';
import { STATE_DEFERRED, STATE_HIDDEN, STATE_PINNED, type SpaceMarks } from './space-marks';

export type CorrectFilter = 'all' | 'correct' | 'wrong';

export interface HeatmapViewOptions {
  correct: CorrectFilter;
  search: string;
  /** Column to sort rows by (descending I_x(s), unscored cells last); null keeps trace order. */
  sortTool: string | null;
  sortDir: 'desc' | 'asc';
  /**
   * Show the requests without any score for the run too. By default they are hidden as soon as some
   * request of the task is scored (a benchmark project holds every unserved request next to the served,
   * scored traces); a task with no score at all shows every request (the exposure view).
   */
  showUnscored?: boolean;
}

export class HeatmapModel {
  readonly task: string;
  readonly run: string | null;
  readonly rows: number;
  readonly cols: number;
  readonly tools: readonly string[];
  readonly means: readonly (number | null)[];
  readonly requests: readonly HeatmapRequest[];
  readonly values: Float32Array;
  readonly states: Uint8Array;
  readonly maxAbs: number;
  /** Colour scale: the largest |I| of a scored cell; the palette's square root keeps small cells visible. */
  readonly scale: number;
  /** Visible rows, in display order (indices into requests). */
  order: Int32Array;
  visibleRows: number;
  /** 1 where the row holds at least one scored cell for the run. */
  readonly rowScored: Uint8Array;
  /** Requests without any scored cell. */
  readonly unscoredRows: number;
  private readonly unscoredIndex: Int32Array;
  /** Requests the current view hides only because they have no score (they pass the filter and search). */
  hiddenUnscored = 0;
  /** 1 where the column's tool is outside the current space (drawn greyed). */
  readonly greyed: Uint8Array;
  /** Each column's state in the task's space (space-marks.ts: pinned, deferred, hidden; 0 while unknown). */
  readonly toolState: Uint8Array;
  /** Where the states come from; null while the space is not known. */
  marks: SpaceMarks | null = null;
  /** Bumped on every change a renderer must redraw for. */
  version = 0;
  private lowered: string[] | null = null;
  private readonly colIndex: Map<string, number>;

  constructor(data: HeatmapData) {
    this.task = data.task;
    this.run = data.run;
    this.tools = data.tools;
    this.means = data.means;
    this.requests = data.requests;
    this.rows = data.requests.length;
    this.cols = data.tools.length;
    this.values = decodeFloat32(data.values);
    this.states = decodeUint8(data.states);
    this.maxAbs = data.maxAbs;
    this.scale = robustScale(this.values, this.states, data.maxAbs);
    this.order = new Int32Array(this.rows).map((_, i) => i);
    this.visibleRows = this.rows;
    this.rowScored = new Uint8Array(this.rows);
    let unscored = 0;
    for (let r = 0; r < this.rows; r++) {
      const base = r * this.cols;
      for (let c = 0; c < this.cols; c++) {
        if (this.states[base + c] === CELL_SCORED) {
          this.rowScored[r] = 1;
          break;
        }
      }
      if (!this.rowScored[r]) unscored++;
    }
    this.unscoredRows = unscored;
    this.unscoredIndex = new Int32Array(unscored);
    for (let r = 0, i = 0; r < this.rows; r++) if (!this.rowScored[r]) this.unscoredIndex[i++] = r;
    this.greyed = new Uint8Array(this.cols);
    this.toolState = new Uint8Array(this.cols);
    this.colIndex = new Map(this.tools.map((t, i) => [t, i]));
  }

  column(tool: string): number {
    return this.colIndex.get(tool) ?? -1;
  }

  /** Grey every column whose tool is not kept; returns true when anything changed. */
  setKept(kept: ReadonlySet<string> | null): boolean {
    let changed = false;
    for (let c = 0; c < this.cols; c++) {
      const g = kept && !kept.has(this.tools[c]!) ? 1 : 0;
      if (this.greyed[c] !== g) {
        this.greyed[c] = g;
        changed = true;
      }
    }
    if (changed) this.version++;
    return changed;
  }

  /** Mark each column with its tool's state in the space; returns true when anything changed. */
  setMarks(marks: SpaceMarks | null): boolean {
    let changed =
      marks?.source.kind !== this.marks?.source.kind ||
      (marks?.source.kind === 'approved' && this.marks?.source.kind === 'approved' && marks.source.version !== this.marks.source.version);
    const pinned = new Set(marks?.pinned ?? []);
    const deferred = new Set(marks?.deferred ?? []);
    for (let c = 0; c < this.cols; c++) {
      const t = this.tools[c]!;
      const s = !marks ? 0 : pinned.has(t) ? STATE_PINNED : deferred.has(t) ? STATE_DEFERRED : STATE_HIDDEN;
      if (this.toolState[c] !== s) {
        this.toolState[c] = s;
        changed = true;
      }
    }
    this.marks = marks;
    if (changed) this.version++;
    return changed;
  }

  /** Whether the view can hide requests without scores: some are scored and some are not. */
  get hidesUnscored(): boolean {
    return this.unscoredRows > 0 && this.unscoredRows < this.rows;
  }

  /** True when the view options hide the requests without scores. */
  hidingUnscored(opts: Pick<HeatmapViewOptions, 'showUnscored'>): boolean {
    return this.hidesUnscored && !opts.showUnscored;
  }

  /**
   * How many requests the options hide only for having no score (the count the view offers to show),
   * without touching the current order: it visits the unscored rows only.
   */
  countHiddenUnscored(opts: HeatmapViewOptions): number {
    if (!this.hidingUnscored(opts)) return 0;
    const needle = this.needle(opts);
    let n = 0;
    for (const r of this.unscoredIndex) if (this.passes(r, opts, needle)) n++;
    return n;
  }

  applyView(opts: HeatmapViewOptions): void {
    const needle = this.needle(opts);
    const hide = this.hidingUnscored(opts);
    const keep: number[] = [];
    let hidden = 0;
    for (let r = 0; r < this.rows; r++) {
      if (!this.passes(r, opts, needle)) continue;
      if (hide && !this.rowScored[r]) {
        hidden++;
        continue;
      }
      keep.push(r);
    }
    this.hiddenUnscored = hidden;
    const order = Int32Array.from(keep);
    const col = opts.sortTool === null ? -1 : this.column(opts.sortTool);
    if (col >= 0) {
      const sign = opts.sortDir === 'desc' ? -1 : 1;
      const { values, states, cols } = this;
      order.sort((a, b) => {
        const sa = states[a * cols + col] === CELL_SCORED;
        const sb = states[b * cols + col] === CELL_SCORED;
        if (sa !== sb) return sa ? -1 : 1; // unscored cells last, whatever the direction
        if (!sa) return a - b;
        const d = values[a * cols + col]! - values[b * cols + col]!;
        return d !== 0 ? sign * d : a - b;
      });
    }
    this.order = order;
    this.visibleRows = order.length;
    this.version++;
  }

  private needle(opts: HeatmapViewOptions): string {
    const needle = opts.search.trim().toLowerCase();
    if (needle && !this.lowered) this.lowered = this.requests.map((r) => `${r.id}\u0000${r.text}`.toLowerCase());
    return needle;
  }

  /** The correctness filter and the search (not the unscored rule). */
  private passes(r: number, opts: HeatmapViewOptions, needle: string): boolean {
    const c = this.requests[r]!.correct;
    if (opts.correct === 'correct' && c !== true) return false;
    if (opts.correct === 'wrong' && c !== false) return false;
    return !needle || this.lowered![r]!.includes(needle);
  }

  cellIndex(viewRow: number, col: number): number {
    return this.order[viewRow]! * this.cols + col;
  }

  request(viewRow: number): HeatmapRequest | undefined {
    const r = this.order[viewRow];
    return r === undefined ? undefined : this.requests[r];
  }
}

/** Sampled (at most ~50k cells) so a 10,000 × 120 matrix costs a few ms, not a long task. */
function robustScale(values: Float32Array, states: Uint8Array, maxAbs: number): number {
  // The largest |I| of the task (issue 40): the colour scale is a square root (palette.ts), so one large
  // cell does not wash the others out, and a percentile scale made every strong cell the same colour.
  let max = 0;
  for (let i = 0; i < values.length; i++) if (states[i] === CELL_SCORED) max = Math.max(max, Math.abs(values[i]!));
  return max > 0 ? max : maxAbs || 1;
}
