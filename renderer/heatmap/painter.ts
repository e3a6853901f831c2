// Draws the visible part of a HeatmapModel on a canvas: only the cells in the viewport, grouped by
// colour bucket (one fillStyle per bucket), frozen column headers and row labels. Called from a
// requestAnimationFrame callback, never directly from input events.
import { CELL_EXPOSED, CELL_SCORED } from '../../shared/api';
import { BUCKETS_PER_SIDE, bucketOf, type Palette } from './palette';
import type { HeatmapModel } from './model';
import { STATE_DEFERRED, STATE_HIDDEN, STATE_PINNED } from './space-marks';

export interface HeatmapLayout {
  cellW: number;
  cellH: number;
  headerH: number;
  labelW: number;
  /** The height of the row of state marks under the column names (0 without a space). */
  marksH: number;
}

/** The row of state marks (pinned / deferred / hidden) under the column names. */
const MARKS_H = 16;

export interface Viewport {
  scrollLeft: number;
  scrollTop: number;
  width: number;
  height: number;
  dpr: number;
}

export type Hit = { region: 'cell'; row: number; col: number } | { region: 'header'; col: number } | { region: 'label'; row: number } | { region: 'none' };

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const FONT_BOLD = '600 11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The width of the frozen row-label column: 22 % of the frame, between 200 and 300 px. */
export function labelWidth(frameWidth: number): number {
  return Math.min(300, Math.max(200, Math.floor(frameWidth * 0.22)));
}

/** Column width grows to fill the frame when there are few tools; never below 18 px. */
export function layoutFor(model: HeatmapModel, frameWidth: number): HeatmapLayout {
  const labelW = labelWidth(frameWidth);
  const longest = model.tools.reduce((m, t) => Math.max(m, Math.min(t.length, 26)), 4);
  const marksH = model.marks ? MARKS_H : 0;
  const headerH = Math.min(150, Math.max(60, Math.round(longest * 6.2 * 0.72) + 28)) + marksH;
  // The last column's name runs up and to the right of its cell: leave it room (issue 40: it was clipped).
  const fill = Math.floor((frameWidth - labelW - 16 - headerRoom(headerH)) / Math.max(1, model.cols));
  const cellW = Math.max(18, Math.min(96, fill));
  // Few rows get taller cells, so a short task does not sit in a corner of the panel.
  const cellH = model.visibleRows > 2000 ? 14 : model.visibleRows > 200 ? 16 : model.visibleRows > 40 ? 20 : 28;
  return { cellW, cellH, headerH, labelW, marksH };
}

/** How far a rotated (45°) column name reaches right of its cell. */
function headerRoom(headerH: number): number {
  return Math.round(headerH * 0.85);
}

/** A cell shows its value as text when it is this large (numbers in cells, issue 40). */
const VALUE_MIN_W = 40;
const VALUE_MIN_H = 18;

export class HeatmapPainter {
  private hatch: CanvasPattern | null = null;
  private hatchFor: Palette | null = null;
  hover: { row: number; col: number } | null = null;
  cursor: { row: number; col: number } | null = null;
  sortTool: string | null = null;
  sortDir: 'desc' | 'asc' = 'desc';
  private bucketOfCell = new Uint8Array(0);
  private cellX = new Int32Array(0);
  private cellY = new Int32Array(0);

  constructor(private readonly canvas: HTMLCanvasElement) {}

  contentSize(model: HeatmapModel, layout: HeatmapLayout): { width: number; height: number } {
    return { width: layout.labelW + model.cols * layout.cellW + headerRoom(layout.headerH), height: layout.headerH + model.visibleRows * layout.cellH };
  }

  hitTest(model: HeatmapModel, layout: HeatmapLayout, vp: Viewport, x: number, y: number): Hit {
    const inCols = x >= layout.labelW;
    const inRows = y >= layout.headerH;
    const col = Math.floor((x - layout.labelW + vp.scrollLeft) / layout.cellW);
    const row = Math.floor((y - layout.headerH + vp.scrollTop) / layout.cellH);
    const colOk = inCols && col >= 0 && col < model.cols;
    const rowOk = inRows && row >= 0 && row < model.visibleRows;
    if (colOk && rowOk) return { region: 'cell', row, col };
    if (colOk && !inRows) return { region: 'header', col };
    if (rowOk && !inCols) return { region: 'label', row };
    return { region: 'none' };
  }

  draw(model: HeatmapModel, layout: HeatmapLayout, vp: Viewport, pal: Palette): void {
    const { canvas } = this;
    const w = Math.max(1, Math.round(vp.width * vp.dpr));
    const h = Math.max(1, Math.round(vp.height * vp.dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) return;
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    ctx.fillStyle = pal.background;
    ctx.fillRect(0, 0, vp.width, vp.height);

    const { cellW, cellH, headerH, labelW } = layout;
    const c0 = Math.max(0, Math.floor(vp.scrollLeft / cellW));
    const c1 = Math.min(model.cols, Math.ceil((vp.scrollLeft + vp.width - labelW) / cellW));
    const r0 = Math.max(0, Math.floor(vp.scrollTop / cellH));
    const r1 = Math.min(model.visibleRows, Math.ceil((vp.scrollTop + vp.height - headerH) / cellH));
    const ox = labelW - vp.scrollLeft;
    const oy = headerH - vp.scrollTop;
    const gap = cellW > 10 ? 1 : 0;

    // Cells: classify the visible ones, then draw bucket by bucket.
    ctx.save();
    ctx.beginPath();
    ctx.rect(labelW, headerH, vp.width - labelW, vp.height - headerH);
    ctx.clip();
    const n = Math.max(0, (c1 - c0) * (r1 - r0));
    if (this.bucketOfCell.length < n) {
      this.bucketOfCell = new Uint8Array(n);
      this.cellX = new Int32Array(n);
      this.cellY = new Int32Array(n);
    }
    const UNEXPOSED = 255;
    const EXPOSED = 254;
    const used = new Uint8Array(2 * BUCKETS_PER_SIDE + 1);
    let k = 0;
    let anyUnexposed = false;
    let anyExposed = false;
    for (let r = r0; r < r1; r++) {
      const base = model.order[r]! * model.cols;
      const y = oy + r * cellH;
      for (let c = c0; c < c1; c++) {
        const i = base + c;
        const s = model.states[i]!;
        let b: number;
        if (s === CELL_SCORED) {
          b = bucketOf(model.values[i]!, model.scale);
          used[b] = 1;
        } else if (s === CELL_EXPOSED) {
          b = EXPOSED;
          anyExposed = true;
        } else {
          b = UNEXPOSED;
          anyUnexposed = true;
        }
        this.bucketOfCell[k] = b;
        this.cellX[k] = ox + c * cellW;
        this.cellY[k] = y;
        k++;
      }
    }
    for (let b = 0; b < used.length; b++) {
      if (!used[b]) continue;
      ctx.fillStyle = pal.buckets[b]!;
      for (let j = 0; j < k; j++) if (this.bucketOfCell[j] === b) ctx.fillRect(this.cellX[j]!, this.cellY[j]!, cellW - gap, cellH - gap);
    }
    if (anyExposed) {
      ctx.fillStyle = pal.exposed;
      for (let j = 0; j < k; j++) if (this.bucketOfCell[j] === EXPOSED) ctx.fillRect(this.cellX[j]!, this.cellY[j]!, cellW - gap, cellH - gap);
      ctx.fillStyle = pal.exposedDot;
      const dx = Math.floor((cellW - gap) / 2) - 1;
      const dy = Math.floor((cellH - gap) / 2) - 1;
      for (let j = 0; j < k; j++) if (this.bucketOfCell[j] === EXPOSED) ctx.fillRect(this.cellX[j]! + dx, this.cellY[j]! + dy, 2, 2);
    }
    if (anyUnexposed) {
      ctx.fillStyle = this.hatchPattern(ctx, pal);
      for (let j = 0; j < k; j++) if (this.bucketOfCell[j] === UNEXPOSED) ctx.fillRect(this.cellX[j]!, this.cellY[j]!, cellW - gap, cellH - gap);
    }
    // Tools outside the current space: washed out, still readable on hover.
    ctx.fillStyle = pal.greyOverlay;
    const rowsBottom = Math.min(vp.height, oy + model.visibleRows * cellH);
    for (let c = c0; c < c1; c++) if (model.greyed[c]) ctx.fillRect(ox + c * cellW, headerH, cellW, Math.max(0, rowsBottom - headerH));
    this.drawValues(ctx, model, layout, pal, r0, r1, c0, c1, ox, oy);
    this.outline(ctx, this.cursor, ox, oy, cellW, cellH, pal.cursor, 2);
    this.outline(ctx, this.hover, ox, oy, cellW, cellH, pal.hover, 1);
    ctx.restore();

    this.drawHeader(ctx, model, layout, vp, pal, c0, c1, ox);
    this.drawLabels(ctx, model, layout, vp, pal, r0, r1, oy);

    // Corner.
    ctx.fillStyle = pal.header;
    ctx.fillRect(0, 0, labelW, headerH);
    ctx.fillStyle = pal.muted;
    ctx.font = FONT;
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    const m = layout.marksH > 0 ? 24 : 0;
    ctx.fillText(`${model.visibleRows.toLocaleString('en-US')} of ${model.rows.toLocaleString('en-US')} requests`, 10, headerH - 24 - m);
    ctx.fillText(`${model.cols} tools, ranked →`, 10, headerH - 9 - m);
    if (m > 0 && model.marks) {
      ctx.fillText(model.marks.source.kind === 'approved' ? `state in approved v${model.marks.source.version} →` : 'state in the proposal →', 10, headerH - 18);
    }
    ctx.fillStyle = pal.grid;
    ctx.fillRect(0, headerH - 1, vp.width, 1);
    ctx.fillRect(labelW - 1, 0, 1, vp.height);
  }

  private outline(
    ctx: CanvasRenderingContext2D,
    at: { row: number; col: number } | null,
    ox: number,
    oy: number,
    cw: number,
    ch: number,
    color: string,
    width: number,
  ): void {
    if (!at) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.strokeRect(ox + at.col * cw + width / 2 - 0.5, oy + at.row * ch + width / 2 - 0.5, cw - width, ch - width);
  }

  private drawHeader(
    ctx: CanvasRenderingContext2D,
    model: HeatmapModel,
    layout: HeatmapLayout,
    vp: Viewport,
    pal: Palette,
    c0: number,
    c1: number,
    ox: number,
  ): void {
    const { cellW, headerH, labelW, marksH } = layout;
    ctx.save();
    ctx.beginPath();
    ctx.rect(labelW, 0, vp.width - labelW, headerH);
    ctx.clip();
    ctx.fillStyle = pal.header;
    ctx.fillRect(labelW, 0, vp.width - labelW, headerH);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    for (let c = c0; c < c1; c++) {
      const tool = model.tools[c]!;
      const x = ox + c * cellW + cellW / 2;
      const sorted = this.sortTool === tool;
      ctx.fillStyle = model.greyed[c] ? pal.muted : pal.text;
      ctx.font = sorted ? FONT_BOLD : FONT;
      ctx.save();
      ctx.translate(x + 3, headerH - 14 - marksH);
      ctx.rotate(-Math.PI / 4);
      const label = tool.length > 26 ? tool.slice(0, 25) + '…' : tool;
      ctx.fillText(label, 0, 0);
      ctx.restore();
      if (marksH > 0) this.drawMark(ctx, model.toolState[c]!, x, headerH - 6 - marksH, pal);
      if (sorted) {
        ctx.fillStyle = pal.text;
        ctx.textAlign = 'center';
        ctx.fillText(this.sortDir === 'desc' ? '▼' : '▲', x, headerH - 6);
        ctx.textAlign = 'left';
      } else if (model.means[c] === null) {
        ctx.fillStyle = pal.muted;
        ctx.textAlign = 'center';
        ctx.fillText('·', x, headerH - 6);
        ctx.textAlign = 'left';
      } else if (cellW >= VALUE_MIN_W) {
        // The tool's mean Ī under its name (issue 40: a per-tool mean without hovering).
        ctx.fillStyle = pal.muted;
        ctx.textAlign = 'center';
        ctx.fillText(signed(model.means[c]!), x, headerH - 6);
        ctx.textAlign = 'left';
      }
    }
    ctx.restore();
  }

  /** A column's state: a filled disc (pinned), a ring (deferred), a cross (hidden): told apart by shape. */
  private drawMark(ctx: CanvasRenderingContext2D, state: number, x: number, y: number, pal: Palette): void {
    const r = 4.5;
    ctx.save();
    if (state === STATE_PINNED) {
      ctx.fillStyle = pal.pinned;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fill();
    } else if (state === STATE_DEFERRED) {
      ctx.strokeStyle = pal.deferred;
      ctx.lineWidth = 1.75;
      ctx.beginPath();
      ctx.arc(x, y, r - 0.5, 0, 2 * Math.PI);
      ctx.stroke();
    } else if (state === STATE_HIDDEN) {
      ctx.strokeStyle = pal.muted;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x - 3.5, y - 3.5);
      ctx.lineTo(x + 3.5, y + 3.5);
      ctx.moveTo(x + 3.5, y - 3.5);
      ctx.lineTo(x - 3.5, y + 3.5);
      ctx.stroke();
    }
    ctx.restore();
  }

  private drawLabels(
    ctx: CanvasRenderingContext2D,
    model: HeatmapModel,
    layout: HeatmapLayout,
    vp: Viewport,
    pal: Palette,
    r0: number,
    r1: number,
    oy: number,
  ): void {
    const { cellH, headerH, labelW } = layout;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, headerH, labelW, vp.height - headerH);
    ctx.clip();
    ctx.fillStyle = pal.header;
    ctx.fillRect(0, headerH, labelW, vp.height - headerH);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const maxChars = Math.max(8, Math.floor((labelW - 28) / 6.1));
    for (let r = r0; r < r1; r++) {
      const req = model.request(r)!;
      const y = oy + r * cellH + cellH / 2;
      if (this.cursor?.row === r || this.hover?.row === r) {
        ctx.fillStyle = pal.grid;
        ctx.fillRect(0, oy + r * cellH, labelW - 1, cellH);
      }
      ctx.fillStyle = req.correct === true ? pal.correct : req.correct === false ? pal.wrong : pal.muted;
      ctx.fillText(req.correct === true ? '✓' : req.correct === false ? '✗' : '·', 8, y);
      ctx.fillStyle = pal.text;
      // The request's text (inside a task its id only repeats the task); the id where there is no text.
      const text = req.text.trim() || req.id;
      ctx.fillText(text.length > maxChars ? text.slice(0, maxChars - 1) + '…' : text, 22, y);
    }
    ctx.restore();
  }

  /**
   * Each scored cell's value, where cells are large enough to hold it, and a marker on each row's
   * top-scoring tool (issue 40: "which tool" without hovering).
   */
  private drawValues(
    ctx: CanvasRenderingContext2D,
    model: HeatmapModel,
    layout: HeatmapLayout,
    pal: Palette,
    r0: number,
    r1: number,
    c0: number,
    c1: number,
    ox: number,
    oy: number,
  ): void {
    const { cellW, cellH } = layout;
    const values = cellW >= VALUE_MIN_W && cellH >= VALUE_MIN_H;
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    for (let r = r0; r < r1; r++) {
      const base = model.order[r]! * model.cols;
      const y = oy + r * cellH;
      let top = -1;
      for (let c = 0; c < model.cols; c++) {
        const i = base + c;
        if (model.states[i] === CELL_SCORED && model.values[i]! > 0 && (top < 0 || model.values[i]! > model.values[base + top]!)) top = c;
      }
      if (values) {
        for (let c = c0; c < c1; c++) {
          const i = base + c;
          if (model.states[i] !== CELL_SCORED) continue;
          const b = bucketOf(model.values[i]!, model.scale);
          // Deep cells take light text.
          ctx.fillStyle = Math.abs(b - BUCKETS_PER_SIDE) > BUCKETS_PER_SIDE * 0.6 ? '#ffffff' : pal.text;
          ctx.fillText(signed(model.values[i]!), ox + c * cellW + cellW / 2, y + cellH / 2);
        }
      }
      if (top >= c0 && top < c1) {
        const x = ox + top * cellW;
        ctx.fillStyle = pal.cursor;
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + 7, y);
        ctx.lineTo(x, y + 7);
        ctx.closePath();
        ctx.fill();
      }
    }
    ctx.textAlign = 'left';
  }

  private hatchPattern(ctx: CanvasRenderingContext2D, pal: Palette): CanvasPattern | string {
    if (this.hatch && this.hatchFor === pal) return this.hatch;
    const tile = document.createElement('canvas');
    tile.width = 6;
    tile.height = 6;
    const t = tile.getContext('2d');
    if (!t) return pal.unexposed;
    t.fillStyle = pal.unexposed;
    t.fillRect(0, 0, 6, 6);
    t.strokeStyle = pal.unexposedLine;
    t.lineWidth = 1;
    t.beginPath();
    t.moveTo(0, 6);
    t.lineTo(6, 0);
    t.moveTo(-1, 1);
    t.lineTo(1, -1);
    t.moveTo(5, 7);
    t.lineTo(7, 5);
    t.stroke();
    this.hatch = ctx.createPattern(tile, 'repeat');
    this.hatchFor = pal;
    return this.hatch ?? pal.unexposed;
  }
}

/** A cell's or a mean's value: two decimals with its sign (a minus sign, not a hyphen). */
function signed(v: number): string {
  const t = Math.abs(v).toFixed(2);
  return t === '0.00' ? '0.00' : `${v < 0 ? '\u2212' : '+'}${t}`;
}
