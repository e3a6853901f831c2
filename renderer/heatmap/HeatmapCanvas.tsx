// The canvas heatmap: a transparent scroller over a viewport-sized canvas. Scroll, hover, resize and
// store changes (filter, sort, K) only schedule a redraw; drawing happens once per animation frame.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { CELL_EXPOSED, CELL_SCORED } from '../../shared/api';
import { fmtSignedSmall } from '../format';
import { selectKept } from '../store/draft-slice';
import { heatmapViewKey, selectHeatmapView } from '../store/heatmap-view-slice';
import { useStudioStore } from '../store/react';
import type { StudioState } from '../store/types';
import type { HeatmapModel } from './model';
import { HeatmapPainter, layoutFor, type HeatmapLayout, type Viewport } from './painter';
import { makePalette, type Palette } from './palette';
import { marksSourceLabel, spaceMarks, STATE_NAME } from './space-marks';

export interface HeatmapCanvasProps {
  model: HeatmapModel;
  onOpenCell(traceId: string, tool: string | null): void;
}

export function HeatmapCanvas({ model, onOpenCell }: HeatmapCanvasProps) {
  const store = useStudioStore();
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const live = useRef<HTMLDivElement>(null);
  const openRef = useRef(onOpenCell);
  useLayoutEffect(() => {
    openRef.current = onOpenCell;
  });

  useEffect(() => {
    const cv = canvas.current!;
    const sc = scroller.current!;
    const sp = spacer.current!;
    const tt = tip.current!;
    const painter = new HeatmapPainter(cv);
    let palette: Palette = makePalette(store.getState().theme === 'dark');
    let layout: HeatmapLayout = layoutFor(model, sc.clientWidth);
    let raf = 0;
    let lastView = '';

    const viewport = (): Viewport => ({
      scrollLeft: sc.scrollLeft,
      scrollTop: sc.scrollTop,
      width: sc.clientWidth,
      height: sc.clientHeight,
      dpr: window.devicePixelRatio || 1,
    });
    const paint = () => {
      raf = 0;
      layout = layoutFor(model, sc.clientWidth);
      const size = painter.contentSize(model, layout);
      if (sp.style.width !== `${size.width}px`) sp.style.width = `${size.width}px`;
      if (sp.style.height !== `${size.height}px`) sp.style.height = `${size.height}px`;
      painter.draw(model, layout, viewport(), palette);
      // The grid says what it shows (the rows change with the filter, search and hidden unscored rows).
      const rows = String(model.visibleRows);
      if (sc.dataset.visibleRows !== rows) {
        sc.dataset.visibleRows = rows;
        sc.setAttribute('aria-label', gridLabel(model));
      }
    };
    const schedule = () => {
      if (!raf) raf = requestAnimationFrame(paint);
    };

    const sync = (s: StudioState) => {
      const key = heatmapViewKey(s);
      if (key !== lastView) {
        lastView = key;
        model.applyView(selectHeatmapView(s));
        painter.sortTool = s.hmSortTool;
        painter.sortDir = s.hmSortDir;
        painter.cursor = null;
      }
      const kept = selectKept(s, model.task);
      model.setKept(kept ? new Set(kept) : null);
      model.setMarks(spaceMarks(s.spaces[model.task]?.value));
      schedule();
    };
    sync(store.getState());
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.theme !== prev.theme) palette = makePalette(s.theme === 'dark');
      if (s.theme !== prev.theme || heatmapViewKey(s) !== heatmapViewKey(prev) || s.drafts !== prev.drafts || s.spaces !== prev.spaces) sync(s);
    });

    const showTip = (x: number, y: number, row: number, col: number) => {
      const req = model.request(row);
      if (!req) return;
      const i = model.cellIndex(row, col);
      const state = model.states[i];
      const tool = model.tools[col]!;
      const value =
        state === CELL_SCORED
          ? `I = ${fmtSignedSmall(model.values[i], 4)}`
          : state === CELL_EXPOSED
            ? 'exposed, no evidence to remove (not scoreable)'
            : 'not exposed on this request';
      tt.textContent = '';
      const head = document.createElement('div');
      head.className = 'tip-head';
      head.textContent = `${tool}${columnState(model, col, ' · ')}${model.greyed[col] ? ' (not pinned at the current K)' : ''}`;
      const val = document.createElement('div');
      val.className = state === CELL_SCORED ? 'tip-value' : 'tip-value muted';
      val.textContent = value;
      const reqEl = document.createElement('div');
      reqEl.className = 'tip-req';
      reqEl.textContent = `${req.id}${req.correct === true ? ' ✓' : req.correct === false ? ' ✗' : ''} · ${req.text.slice(0, 140)}`;
      const hint = document.createElement('div');
      hint.className = 'tip-hint';
      hint.textContent = 'click: open the trace';
      tt.append(head, val, reqEl, hint);
      tt.style.display = 'block';
      const fw = frame.current!.clientWidth;
      const left = x + 16 + 300 > fw ? x - 16 - 300 : x + 16;
      tt.style.transform = `translate(${Math.max(4, left)}px, ${y + 14}px)`;
    };
    const hideTip = () => {
      tt.style.display = 'none';
    };

    const local = (e: MouseEvent) => {
      const r = sc.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const onMove = (e: MouseEvent) => {
      const { x, y } = local(e);
      const hit = painter.hitTest(model, layout, viewport(), x, y);
      const hover = hit.region === 'cell' ? { row: hit.row, col: hit.col } : null;
      sc.style.cursor = hit.region === 'none' ? 'default' : 'pointer';
      if (hover?.row !== painter.hover?.row || hover?.col !== painter.hover?.col) {
        painter.hover = hover;
        schedule();
      }
      if (hover) showTip(x, y, hover.row, hover.col);
      else hideTip();
    };
    const onLeave = () => {
      painter.hover = null;
      hideTip();
      schedule();
    };
    const onClick = (e: MouseEvent) => {
      const { x, y } = local(e);
      const hit = painter.hitTest(model, layout, viewport(), x, y);
      if (hit.region === 'header') store.getState().sortHeatmapBy(model.tools[hit.col]!);
      else if (hit.region === 'cell') {
        painter.cursor = { row: hit.row, col: hit.col };
        openRef.current(model.request(hit.row)!.id, model.tools[hit.col]!);
      } else if (hit.region === 'label') openRef.current(model.request(hit.row)!.id, null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (model.visibleRows === 0 || model.cols === 0) return;
      const cur = painter.cursor ?? { row: 0, col: 0 };
      let { row, col } = cur;
      switch (e.key) {
        case 'ArrowDown':
          row++;
          break;
        case 'ArrowUp':
          row--;
          break;
        case 'ArrowRight':
          col++;
          break;
        case 'ArrowLeft':
          col--;
          break;
        case 'PageDown':
          row += Math.floor(sc.clientHeight / layout.cellH) - 1;
          break;
        case 'PageUp':
          row -= Math.floor(sc.clientHeight / layout.cellH) - 1;
          break;
        case 'Home':
          row = 0;
          break;
        case 'End':
          row = model.visibleRows - 1;
          break;
        case 'Enter':
          e.preventDefault();
          openRef.current(model.request(cur.row)!.id, model.tools[cur.col]!);
          return;
        case 's':
          e.preventDefault();
          store.getState().sortHeatmapBy(model.tools[cur.col]!);
          return;
        default:
          return;
      }
      e.preventDefault();
      row = Math.max(0, Math.min(model.visibleRows - 1, row));
      col = Math.max(0, Math.min(model.cols - 1, col));
      painter.cursor = { row, col };
      // What a screen reader says for the cell the keys moved to (issue 40: the canvas has no cells to read).
      if (live.current) live.current.textContent = cellSpeech(model, row, col);
      // Keep the cursor cell inside the viewport.
      const top = row * layout.cellH;
      const left = col * layout.cellW;
      const viewH = sc.clientHeight - layout.headerH;
      const viewW = sc.clientWidth - layout.labelW;
      if (top < sc.scrollTop) sc.scrollTop = top;
      else if (top + layout.cellH > sc.scrollTop + viewH) sc.scrollTop = top + layout.cellH - viewH;
      if (left < sc.scrollLeft) sc.scrollLeft = left;
      else if (left + layout.cellW > sc.scrollLeft + viewW) sc.scrollLeft = left + layout.cellW - viewW;
      schedule();
    };

    sc.addEventListener('scroll', schedule, { passive: true });
    sc.addEventListener('mousemove', onMove);
    sc.addEventListener('mouseleave', onLeave);
    sc.addEventListener('click', onClick);
    sc.addEventListener('keydown', onKey);
    const ro = new ResizeObserver(schedule);
    ro.observe(sc);
    return () => {
      if (raf) cancelAnimationFrame(raf);
      unsubscribe();
      ro.disconnect();
      sc.removeEventListener('scroll', schedule);
      sc.removeEventListener('mousemove', onMove);
      sc.removeEventListener('mouseleave', onLeave);
      sc.removeEventListener('click', onClick);
      sc.removeEventListener('keydown', onKey);
    };
  }, [model, store]);

  return (
    <div className="heatmap-frame" ref={frame}>
      <canvas ref={canvas} className="heatmap-canvas" aria-hidden="true" />
      <div ref={scroller} className="heatmap-scroller" tabIndex={0} role="grid" aria-label={gridLabel(model)} data-testid="heatmap-scroller">
        <div ref={spacer} className="heatmap-spacer" />
      </div>
      <div ref={tip} className="heatmap-tip" role="tooltip" />
      <div ref={live} className="sr-only" aria-live="polite" data-testid="heatmap-live" />
    </div>
  );
}

function cellSpeech(model: HeatmapModel, row: number, col: number): string {
  const req = model.request(row)!;
  const i = model.order[row]! * model.cols + col;
  const state = model.states[i];
  const value = state === CELL_SCORED ? `I = ${fmtSignedSmall(model.values[i], 3)}` : state === CELL_EXPOSED ? 'exposed, no evidence' : 'not exposed';
  const verdict = req.correct === true ? ', answered correctly' : req.correct === false ? ', answered wrongly' : '';
  return `${model.tools[col]}${columnState(model, col, ', ')}: ${value}. Request ${row + 1} of ${model.visibleRows}${verdict}: ${req.text.slice(0, 120)}`;
}

/** ", deferred in approved v3": the column's state in the space, for the tooltip and the screen reader. */
function columnState(model: HeatmapModel, col: number, sep: string): string {
  const state = model.toolState[col]!;
  return model.marks && state ? `${sep}${STATE_NAME[state]} in ${marksSourceLabel(model.marks)}` : '';
}

function gridLabel(model: HeatmapModel): string {
  const rows = model.visibleRows === model.rows ? `${model.rows} requests` : `${model.visibleRows} of ${model.rows} requests`;
  return `Attribution heatmap: ${rows} × ${model.cols} tools. Arrow keys move, Enter opens the trace, s sorts by the column.`;
}
