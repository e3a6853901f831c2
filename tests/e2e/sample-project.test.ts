// The sample project, as a newcomer meets it: the empty Project view → "Open the sample project" →
// the Demo view tells the story (accuracy per method, prompt tokens, registry growth when recorded, per
// family the kept tools against the gold chain), and each family links to a real heatmap, ranking and
// budget curve. No model is loaded: the sample was served and scored by the default model when it was
// made (assets/sample-project, `npm run sample`). The bundled folder is never written.
// Screenshots at 1280×800 and 1920×1080 land in artifacts/screenshots/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEFAULT_SAMPLE_PROJECT_DIR } from '../../electron/engine/usecases/demo';
import { ProjectStore } from '../../electron/engine/store';
import { describeRequiring } from '../describe-requiring';
import { useStudioPage } from './studio';

function tree(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${rel}${name}/`);
      else out[`${rel}${name}`] = st.mtimeMs;
    }
  };
  walk(dir, '');
  return out;
}

describeRequiring('chromium', 'the sample project and the Demo view', () => {
  const bundled = tree(DEFAULT_SAMPLE_PROJECT_DIR);
  const sample = ProjectStore.open(DEFAULT_SAMPLE_PROJECT_DIR);
  const families = sample
    .listSweeps()
    .map((s) => s.task)
    .sort();
  const record = sample.readDemo();

  const session = useStudioPage('sample');
  const settle = (): Promise<void> => session.ui.settle();
  const shot = (name: string): Promise<void> => session.ui.shot(name, { fullPage: name.startsWith('demo') });

  it("the bundled sample is a real demo run: a model, sweeps with baselines, reference rows and Table 9's fixed-K rows, approved spaces", () => {
    expect(record, 'assets/sample-project/demo.json').toBeDefined();
    expect(record!.modelName).toMatch(/\.gguf$/);
    expect(families.length).toBeGreaterThanOrEqual(3);
    for (const task of families) {
      const sweep = sample.readSweep(task)!;
      expect(sweep.bestK, task).toBeGreaterThan(0);
      expect(new Set(sweep.baselines.map((b) => b.name))).toEqual(
        new Set([
          ...['lots', 'keep-all', 'no-tools', 'random', 'bm25', 'oracle', 'lots-k2', 'lots-k4', 'lots-deferred'],
          // the paper's Table 9: the label-free rankings at the same fixed K
          ...['dense-k2', 'dense-k4', 'tool2vec-k2', 'tool2vec-k4', 'random-k2', 'random-k4'],
        ]),
      );
      expect(sample.readSpaces(task).versions.length, task).toBeGreaterThan(0);
    }
    expect(sample.listScores().length).toBeGreaterThan(0);
    // Three seeds of the fitting draw (issue 39): each seed's point has LOTS, keep-all and the reference
    // rows, and each seed's project travels with the sample so its outcomes can be recomputed.
    const seeds = record!.seeds ?? [];
    expect(seeds.map((p) => p.seed)).toEqual(['0', '1', '2']);
    for (const p of seeds) {
      for (const method of ['lots', 'keep-all', 'bm25', 'oracle', 'lots-k2', 'lots-k4'])
        expect(p.accuracy[method], `seed ${p.seed}: ${method}`).toBeGreaterThanOrEqual(0);
      expect(p.lotsMinus['keep-all']?.lo, `seed ${p.seed}: paired interval`).toBeDefined();
      if (p.seed !== '0') expect(existsSync(join(DEFAULT_SAMPLE_PROJECT_DIR, p.project, 'demo.json')), `seed ${p.seed}'s project`).toBe(true);
    }
  });

  it('every view has content: more than two scored requests a task, and a History of folded batches', () => {
    for (const task of families) {
      const scored = new Set(
        sample
          .listScores()
          .filter((s) => s.task === task)
          .map((s) => s.trace),
      );
      expect(scored.size, `${task}: scored requests`).toBeGreaterThan(2);
      const updates = sample.readUpdates(task);
      expect(updates?.batches.length, `${task}: folded batches`).toBe(2);
      expect(updates!.rule).toEqual({ kind: 'topk', k: sample.readSweep(task)!.bestK });
    }
  });

  it('opens from the empty Project view as a copy and tells the story on one screen', async () => {
    const { page, studio } = session;
    await page.click('[data-testid="open-sample"]');
    await page.waitForSelector('[data-testid="demo-story"]');
    await settle();
    const copy = (await studio.service.getProject())!.dir;
    expect(copy.startsWith(join(studio.configDir, 'sample-projects'))).toBe(true);
    await expect(page.locator('[data-testid="demo-headline"]').textContent()).resolves.toMatch(
      /LOTS keeps [\d.]+ tools per task and answers \d+% of \d+ evaluation requests, against \d+% with the whole registry/,
    );
    await expect(page.locator('[data-testid="demo-headline-seeds"]').textContent()).resolves.toMatch(
      /That is seed 0; over the 3 seeds LOTS answers \d+% ± \d+% and keep-all \d+% ± \d+%/,
    );
    await expect(page.locator('[data-testid="demo-seeds-table"] tbody tr[data-method="oracle"]').count()).resolves.toBe(1);
    await expect(page.locator('[data-testid="demo-provenance"]').textContent()).resolves.toContain(record!.modelName);
    expect(await page.locator('[data-testid="demo-families"] tbody tr').count()).toBe(families.length);
    // Both charts are drawn with one bar group per method.
    const charts = page.locator('.svg-chart svg');
    expect(await charts.count()).toBeGreaterThanOrEqual(2);
    expect(await charts.nth(0).getAttribute('aria-label')).toMatch(/^Accuracy per method on evaluation requests: LOTS \d+%, Keep-all \d+%/);
    expect(await charts.nth(1).getAttribute('aria-label')).toMatch(/^Prompt tokens per request: LOTS \d+, Keep-all \d+/);
    if ((record?.growth.length ?? 0) > 1) await page.waitForSelector('[data-testid="demo-growth"] svg');
    for (const [w, h] of [
      [1280, 800],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await settle();
      await shot('demo-story');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('each family links to a real heatmap, ranking and budget curve', async () => {
    const { page, ui } = session;
    const task = families[0]!;
    await page.click(`button[aria-label="Heatmap of ${task}"]`);
    await page.waitForSelector('[data-testid="view-heatmap"]');
    await page.waitForSelector('[data-testid="heatmap-scroller"][data-visible-rows]');
    expect(Number(await page.getAttribute('[data-testid="heatmap-scroller"]', 'data-visible-rows'))).toBeGreaterThan(0);
    await settle();
    await shot('sample-heatmap');

    await page.click('nav [data-view="demo"]');
    await page.click(`button[aria-label="Ranking of ${task}"]`);
    await page.waitForSelector('[data-testid="view-ranking"]');
    await page.waitForSelector('.recharts-bar-rectangle');
    await settle();
    await shot('sample-ranking');

    await page.click('nav [data-view="budget"]');
    await page.waitForSelector('[data-testid="view-budget"]');
    await page.waitForSelector('text=Best K by measured fitting accuracy');
    await settle();
    await shot('sample-budget');

    await page.click('nav [data-view="history"]');
    await page.waitForSelector('[data-testid="history-timeline"]');
    await expect(page.locator('[data-testid="history-summary"]').textContent()).resolves.toMatch(/^2 batches folded · α = 0\.2 · top-\d+/);
    await page.waitForSelector('[data-testid="history-trajectory"] svg');
    await settle();
    await shot('sample-history');
    expect(ui.errors).toEqual([]);
  });

  it('the demo report carries the same charts; the bundled folder was not written', async () => {
    const { studio } = session;
    const report = await studio.service.renderDemoReport();
    expect(report.html).toContain('Accuracy per method on evaluation requests: LOTS');
    expect(report.html).toContain('Prompt tokens per request: LOTS');
    for (const task of families) expect(report.html).toContain(`<td>${task}</td>`);
    expect(tree(DEFAULT_SAMPLE_PROJECT_DIR)).toEqual(bundled);
  });
});
