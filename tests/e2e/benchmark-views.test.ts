// The Budget and Heatmap views of a benchmark project, in headless Chromium: one family of the built-in
// benchmark, its fitting requests served, scored, swept and compared with the baselines by the
// random-weight fixture model through the engine functions (a minute, not the demo's minutes). Every
// baseline scores 0 % at nearby K with such a model, the worst case for labels drawn on the chart.
// The fit chart's legend names every baseline and nothing in the chart overlaps; the heatmap shows the
// served, scored traces and hides the family's unserved requests behind a counted toggle.
// Screenshots at 1280×800 and 1920×1080 land in artifacts/screenshots/.
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import { evaluateTask, sweepTask } from '../../electron/engine/benchmark/evaluate';
import { makeBenchProject } from '../../electron/engine/benchmark/make';
import { benchRequests, taskRanking } from '../../electron/engine/benchmark/project';
import { scoreBenchTraces } from '../../electron/engine/benchmark/score';
import { serveProject } from '../../electron/engine/benchmark/serve-project';
import { BenchServer } from '../../electron/engine/benchmark/server';
import { ProjectStore } from '../../electron/engine/store';
import { BASELINE_NAMES, selectionMethod } from '../../shared/selection/registry';
import { describeRequiring } from '../describe-requiring';
import { ROOT, SHOTS, SIZES, useStudioPage, type StudioPage } from './studio';

const TASK = 'compute_only';
const FIT = 4;
const EVAL = 8;
// Every method of the selection registry, the model-asking baselines too (each its own marker and label).
const BASELINES = ['lots', ...BASELINE_NAMES];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  name: string;
}

let ui: StudioPage;
let page: Page;
let scoredTraces = 0;

/** One family, served, scored, swept and evaluated on its fitting requests with the fixture model. */
async function buildBenchProject(dir: string): Promise<number> {
  const made = makeBenchProject(dir, { seed: 'views', families: [TASK], fit: FIT, eval: EVAL });
  const model = ensureFixtureModel(join(ROOT, 'tests/.fixtures/models'), { kind: 'random' });
  const server = await BenchServer.open(model, { gpu: 'cpu', parallel: 2, maxTokens: 6 });
  try {
    const served = await serveProject(made.store, server, { split: 'fit' });
    const scored = await scoreBenchTraces(made.store, server.model, server.renderer, served.traces, {
      modelHash: server.modelHash,
      modelName: server.modelName,
    });
    const { byTask, registry, seed } = benchRequests(made.store);
    const requests = byTask.get(TASK)!;
    const scores = made.store.listScores(scored.run).filter((s) => s.task === TASK);
    const ranking = taskRanking(scores, TASK);
    await sweepTask(made.store, server, TASK, requests, ranking, { run: scored.run });
    await evaluateTask(made.store, server, TASK, requests, registry, { seed, draws: 2, splits: ['fit'], baselines: BASELINE_NAMES });
    return scores.filter((s) => Object.keys(s.scores).length > 0).length;
  } finally {
    await server.close();
  }
}

const settle = (): Promise<void> => ui.settle();
const go = (view: string): Promise<void> => ui.go(view);
const shot = (name: string): Promise<void> => ui.shot(name);

async function boxes(locator: Locator, name: (el: Locator, i: number) => Promise<string>): Promise<Box[]> {
  const out: Box[] = [];
  const all = await locator.all();
  for (let i = 0; i < all.length; i++) {
    const b = await all[i]!.boundingBox();
    if (b && b.width > 0 && b.height > 0) out.push({ ...b, name: await name(all[i]!, i) });
  }
  return out;
}

/** Pairs of boxes that overlap by more than half a pixel each way (touching is fine). */
function overlaps(list: readonly Box[], other: readonly Box[] = list): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = list === other ? i + 1 : 0; j < other.length; j++) {
      const a = list[i]!;
      const b = other[j]!;
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 0.5 && h > 0.5) out.push(`"${a.name}" × "${b.name}"`);
    }
  }
  return out;
}

const heatmapRows = async () => Number(await page.getAttribute('[data-testid="heatmap-scroller"]', 'data-visible-rows'));

describeRequiring('chromium', 'the benchmark project in the Budget and Heatmap views', () => {
  const session = useStudioPage('bench', {
    before: async (work) => void (scoredTraces = await buildBenchProject(join(work, 'bench'))),
    ready: ({ studio, work }) => studio.service.setProject(ProjectStore.open(join(work, 'bench'))),
    timeoutMs: 420_000,
  });
  beforeAll(async () => {
    ({ ui, page } = session);
    await page.waitForSelector(`[data-task="${TASK}"]`);
  });

  it('lays out the fit chart: a legend with every baseline, and nothing drawn over anything else', async () => {
    await go('budget');
    await page.waitForSelector('text=Best K by measured fitting accuracy');
    const legend = page.locator('[data-testid="budget-fit-legend"]');
    await legend.waitFor();
    const names = await legend.locator('[data-baseline]').evaluateAll((els) => els.map((e) => e.getAttribute('data-baseline')));
    expect([...names].sort()).toEqual([...BASELINES].sort());
    // Named as the comparison table names them (the registry's labels), not by their ids.
    const labels = await legend.locator('[data-baseline]').allTextContents();
    expect([...labels].sort()).toEqual(BASELINES.map((b) => selectionMethod(b)!.label).sort());
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await settle();
      const size = `${width}×${height}`;
      const legendItems = await boxes(legend.locator('li'), async (el) => (await el.textContent()) ?? '');
      expect(legendItems.length, size).toBe(BASELINES.length + 5); // F̂, accuracy, recommended K, current K; the baselines' title
      expect(overlaps(legendItems), `legend entries overlap at ${size}`).toEqual([]);
      // Every entry is readable: at least 11 px text, inside the card.
      const fontSize = await legend.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(fontSize).toBeGreaterThanOrEqual(11);
      const chart = page.locator('[data-testid="budget-fit-chart"]');
      const markers = await boxes(chart.locator('[data-baseline]'), async (el) => (await el.getAttribute('data-baseline'))!);
      expect(markers.map((m) => m.name).sort(), size).toEqual([...BASELINES].sort());
      expect(overlaps(markers), `baseline markers overlap at ${size}: ${JSON.stringify(markers)}`).toEqual([]);
      const texts = await boxes(chart.locator('svg text'), async (el) => (await el.textContent()) ?? '');
      expect(texts.length).toBeGreaterThan(4);
      expect(texts.map((t) => t.name)).not.toEqual(expect.arrayContaining(['bm25'])); // no baseline text in the chart
      expect(overlaps(texts), `chart labels overlap at ${size}`).toEqual([]);
      expect(overlaps(markers, texts), `markers over labels at ${size}`).toEqual([]);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shot('bench-budget');
      // The fit card alone, for a closer look at the markers and the legend.
      await page.locator('.card', { has: chart }).screenshot({ path: join(SHOTS, `${width}x${height}`, 'bench-budget-fit-card.png') });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await settle();
  });

  it('shows the scored traces by default and the unserved requests behind a counted toggle', async () => {
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"][data-visible-rows]');
    const total = ProjectStore.open(join(session.work, 'bench'))
      .listTraces()
      .filter((t) => t.task === TASK).length;
    expect(scoredTraces).toBe(FIT);
    expect(total).toBe(FIT + FIT + EVAL); // served copies of the fitting requests, and every request
    const hidden = total - scoredTraces;
    expect(await heatmapRows()).toBe(scoredTraces);
    const count = page.locator('[data-testid="heatmap-unscored-count"]');
    expect(await count.textContent()).toBe(`${hidden} requests without scores hidden`);
    expect(await count.getAttribute('data-count')).toBe(String(hidden));
    const toggle = page.locator('[data-testid="toggle-unscored"]');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await settle();
      await shot('bench-heatmap');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await settle();

    // From the keyboard: focus the toggle, Enter shows the hidden requests, Space hides them again.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await settle();
    expect(await heatmapRows()).toBe(total);
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await count.textContent()).toBe(`Showing ${hidden} requests without scores`);
    expect(await page.getAttribute('[data-testid="heatmap-scroller"]', 'aria-label')).toContain(`${total} requests`);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await shot('bench-heatmap-all-rows');
    await toggle.focus();
    await page.keyboard.press('Space');
    await settle();
    expect(await heatmapRows()).toBe(scoredTraces);
    expect(await page.getAttribute('[data-testid="heatmap-scroller"]', 'aria-label')).toContain(`${scoredTraces} of ${total} requests`);
  });

  it('logged no page errors', () => {
    expect(ui.errors).toEqual([]);
  });
});
