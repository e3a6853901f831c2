// Heatmap at scale: 10,000 requests × 120 tools, rendered and scrolled in headless Chromium, long
// tasks (> 50 ms) counted with the Performance API. Prints the figures; asserts no timing (machines
// differ). Opt-in, it builds a large project: LOTS_PERF=1 npx vitest run tests/e2e/heatmap-perf.test.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { StoredScore } from '../../shared/project/scores';
import type { Trace } from '../../shared/trace/schema';
import { ProjectStore } from '../../electron/engine/store';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, startStudio, type Studio } from './studio';

const ROWS = 10_000;
const TOOLS = 120;
const EXPOSED = 60;

function bigProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lots-perf-'));
  const store = ProjectStore.create(dir, 'perf');
  const names = Array.from({ length: TOOLS }, (_, i) => `tool_${String(i).padStart(3, '0')}`);
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  const traces: Trace[] = [];
  const rows: StoredScore[] = [];
  for (let r = 0; r < ROWS; r++) {
    const exposed = names.filter(() => rand() < EXPOSED / TOOLS);
    traces.push({
      v: 1,
      id: `req-${r}`,
      task: 'big',
      tools: exposed.map((name) => ({ name })),
      turns: [{ request: `request ${r}: ${'lorem ipsum '.repeat(3)}`, steps: [], answer: 'x', correct: r % 4 !== 0 }],
    });
    const scores: Record<string, number> = {};
    for (const t of exposed) if (rand() < 0.8) scores[t] = (rand() - 0.3) / (1 + Number(t.slice(5)) / 10);
    rows.push({ key: `perf|${r}`, run: 'import:perf', trace: `req-${r}`, task: 'big', exposed, scores });
  }
  store.addTraces(traces, 'perf.jsonl');
  store.appendScores(rows);
  return dir;
}

describe.skipIf(!process.env.LOTS_PERF || !chromiumAvailable())('heatmap 10,000 × 120 in Chromium', () => {
  let studio: Studio;
  let browser: Browser;

  beforeAll(async () => {
    ensureRendererBuilt();
    const dir = bigProject();
    studio = await startStudio();
    studio.service.setProject(ProjectStore.open(dir));
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await studio?.close();
  });

  it('renders and scrolls; reports long tasks', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(studio.host.openUrl);
    await page.waitForSelector('[data-testid="view-home"]');
    // Observe long tasks from here on (loading the project is reported separately).
    await page.evaluate(() => {
      const w = window as unknown as { __long: { start: number; duration: number }[] };
      w.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: false });
    });
    const t0 = Date.now();
    await page.evaluate(() => {
      window.location.hash = '#/heatmap?task=big';
    });
    await page.waitForSelector('[data-testid="heatmap-scroller"]', { timeout: 120_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const loadMs = Date.now() - t0;
    const loadLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.splice(0));

    // Let the rest of the view (space, budget for the K slider) arrive before scrolling.
    await page.waitForTimeout(1500);
    const settleLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.splice(0));
    // Scroll: 240 frames down (and across), one step per animation frame, as a fast wheel/drag would.
    const scroll = await page.evaluate(async () => {
      const sc = document.querySelector('[data-testid="heatmap-scroller"]') as HTMLElement;
      const frames: number[] = [];
      let last = performance.now();
      for (let i = 0; i < 240; i++) {
        sc.scrollTop += 420;
        if (i % 3 === 0) sc.scrollLeft = (i * 37) % Math.max(1, sc.scrollWidth - sc.clientWidth);
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        frames.push(now - last);
        last = now;
      }
      // Hover sweep: the tooltip and outline follow the pointer.
      const rect = sc.getBoundingClientRect();
      for (let i = 0; i < 120; i++) {
        sc.dispatchEvent(new MouseEvent('mousemove', { clientX: rect.left + 300 + i * 10, clientY: rect.top + 200 + i * 5, bubbles: true }));
        await new Promise((r) => requestAnimationFrame(r));
      }
      await new Promise((r) => setTimeout(r, 200));
      frames.sort((a, b) => a - b);
      return {
        frames: frames.length,
        p50: frames[Math.floor(frames.length / 2)]!,
        p95: frames[Math.floor(frames.length * 0.95)]!,
        max: frames.at(-1)!,
        scrollHeight: sc.scrollHeight,
      };
    });
    const scrollLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.splice(0));

    // Sort by a column and change the filter: model work on 10,000 rows.
    await page.evaluate(async () => {
      const search = document.getElementById('heatmap-search') as HTMLInputElement;
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the native value setter, called on the input below (React sees the change).
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(search, 'request 99');
      search.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 300));
    });
    const interactLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.splice(0));

    // The K slider on the budget view (120 tools): each move re-renders the kept set and the curves.
    await page.evaluate(() => {
      window.location.hash = '#/budget?task=big';
    });
    await page.waitForSelector('[data-testid="k-slider"]', { timeout: 120_000 });
    await page.waitForTimeout(1000);
    await page.evaluate(() => (window as unknown as { __long: unknown[] }).__long.splice(0));
    const slider = await page.evaluate(async () => {
      const input = document.querySelector('[data-testid="k-slider"]') as HTMLInputElement;
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the native value setter, called on the input below (React sees the change).
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        const t0 = performance.now();
        setter.call(input, String(5 + i));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return { p50: times[30]!, p95: times[57]!, max: times[59]!, kept: document.querySelectorAll('[data-testid="kept-set"] .chip').length };
    });
    const sliderLong = await page.evaluate(() => (window as unknown as { __long: { duration: number }[] }).__long.splice(0));
    const fmt = (l: { duration: number }[]) => `${l.length} long task(s)${l.length ? `, max ${Math.max(...l.map((x) => x.duration)).toFixed(0)} ms` : ''}`;
    console.log(
      [
        `heatmap ${ROWS} × ${TOOLS} (≈${EXPOSED} exposed per request, 80% of them scored)`,
        `  open (fetch + decode + first draw): ${loadMs} ms wall; ${fmt(loadLong)}; next 1.5 s: ${fmt(settleLong)}`,
        `  scroll 240 frames: frame p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms; + hover sweep 120 frames: ${fmt(scrollLong)}`,
        `  search over ${ROWS} requests: ${fmt(interactLong)}`,
        `  K slider, 60 moves on ${TOOLS} tools (input → next frame painted): p50 ${slider.p50.toFixed(1)} ms, p95 ${slider.p95.toFixed(1)} ms, max ${slider.max.toFixed(1)} ms; ${fmt(sliderLong)}`,
      ].join('\n'),
    );
    expect(scroll.scrollHeight).toBeGreaterThan(ROWS * 10);
    await page.close();
  }, 600_000);
});
