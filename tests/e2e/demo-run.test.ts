// "Run the demo" in Chromium, as a newcomer without a real model does it: the Demo view's card → the
// reference model (named for what it is) → one family → Start. The engine runs `lots demo`'s runDemo as
// a job: the card lists its steps (done / running with counts / waiting) while it runs, and when it is
// done the demo folder opens as the project and the Demo view tells its story. The smallest choice the
// card offers (one family, the quick preset) keeps it short. A screenshot of the card while it runs:
// artifacts/screenshots/1280x800/demo-run.png (LOTS_README_SHOTS=1 also copies it to assets/screenshots/),
// and of its form before the start: demo-run-form.png.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { runDemo } from '../../electron/engine/benchmark/demo';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import { describeRequiring } from '../describe-requiring';
import { ROOT, SHOTS, useStudioPage } from './studio';

const FAMILY = 'compute_only';

describeRequiring('chromium', 'running the demo from the Demo view', () => {
  const session = useStudioPage('demo-run');

  it('starts with the reference model, shows every step while it runs, then opens the demo project and its story', async () => {
    const { ui, page, studio, work } = session;
    await ui.go('demo');
    const card = page.getByTestId('demo-run');
    await card.getByRole('heading', { name: 'Run the demo' }).waitFor();
    // No real model in a fresh data folder: the card says so and how to get it; nothing is chosen for the user.
    expect(await card.getByTestId('demo-run-not-pulled').textContent()).toMatch(
      /Not pulled yet: pull it on the Models view, or run npx lots models pull pypi:/,
    );
    expect(await card.getByTestId('demo-run-start').isDisabled()).toBe(true);
    const dir = join(work, 'demo');
    await card.getByLabel('Output folder').fill(dir);
    // Keyboard: the reference model by its label, the families by theirs.
    await card.getByLabel(/^Reference model \(no real model; results are noise\)/).check();
    await card.getByTestId('demo-run-families-none').click();
    await card.getByLabel(FAMILY).press('Space');
    expect(await card.getByLabel(FAMILY).isChecked()).toBe(true);
    mkdirSync(join(SHOTS, '1280x800'), { recursive: true });
    await card.screenshot({ path: join(SHOTS, '1280x800', 'demo-run-form.png') });
    await card.getByTestId('demo-run-start').click();

    // While it runs: the steps, one running with its counts, the later ones waiting.
    const steps = card.getByTestId('demo-run-steps');
    await steps.waitFor({ timeout: 300_000 });
    await page.waitForSelector(
      '[data-testid="demo-run-steps"] [data-step="score"][data-status="running"], [data-testid="demo-run-steps"] [data-step="sweep"][data-status="running"], [data-testid="demo-run-steps"] [data-step="evaluate"][data-status="running"]',
      { timeout: 300_000 },
    );
    const ids = await steps.locator('[data-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
    expect(ids).toEqual(['load', 'make', 'serve', 'score', 'sweep', 'evaluate']);
    expect(await steps.locator('[data-step="load"]').getAttribute('data-status')).toBe('done');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await ui.settle();
    const shot = join(SHOTS, '1280x800', 'demo-run.png');
    await card.screenshot({ path: shot });
    if (process.env.LOTS_README_SHOTS) copyFileSync(shot, join(ROOT, 'assets', 'screenshots', 'demo-run.png'));
    expect(await card.getByTestId('demo-run-cancel').isVisible()).toBe(true);

    // Done: the folder opens as the project and the Demo view tells its story.
    await page.waitForSelector('[data-testid="demo-story"]', { timeout: 600_000 });
    const project = (await studio.service.getProject())!;
    expect(project.dir).toBe(dir);
    expect(await page.getByTestId('demo-provenance').textContent()).toContain('lots demo --out');
    expect(await page.getByTestId('demo-families').textContent()).toContain(FAMILY);
    // The card below the story shows the finished job, every step done.
    const statuses = await page.locator('[data-testid="demo-run-steps"] [data-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    expect(await page.getByTestId('demo-run-status').textContent()).toBe('done');
    const store = ProjectStore.open(dir);
    expect(store.readDemo()?.preset.families).toEqual([FAMILY]);
    expect(store.listSweeps().map((s) => s.task)).toEqual([FAMILY]);
    expect(existsSync(join(dir, 'demo.json'))).toBe(true);
    expect(ui.errors).toEqual([]);
  }, 900_000);

  it('a demo run at two registry sizes shows accuracy against the registry size on the Demo view', async () => {
    const { ui, page, studio, work } = session;
    const dir = join(work, 'growth');
    const modelPath = ensureFixtureModel(join(ROOT, 'tests/.fixtures/models'), { kind: 'random' });
    const result = await runDemo({
      modelPath,
      out: dir,
      families: [FAMILY],
      fit: 1,
      eval: 1,
      draws: 1,
      kMax: 2,
      maxTokens: 3,
      registries: [15, 30],
      gpu: 'cpu',
      log: () => {},
    });
    expect(result.record.growth.map((g) => g.registry)).toEqual([15, 30]);
    await studio.service.openProject({ dir });
    await ui.go('demo');
    const chart = page.locator('[data-testid="demo-growth"] svg');
    await chart.waitFor();
    // The chart names both sizes with keep-all's and LOTS's accuracy, as the record has them.
    const pct = (v: number) => `${Math.round(v * 100)}%`;
    const expected = result.record.growth
      .map((g) => `${g.registry} tools: keep-all ${pct(g.methods['keep-all']!.accuracy)}, LOTS ${pct(g.methods.lots!.accuracy)}`)
      .join('; ');
    expect(await chart.getAttribute('aria-label')).toBe(`Accuracy against registry size: ${expected}`);
    expect(await page.getByTestId('demo-growth').locator('.card-head').textContent()).toContain('1 family');
    const labels = await chart.locator('text').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['15 tools', '30 tools']));
    await ui.settle();
    await page.getByTestId('demo-growth').screenshot({ path: join(SHOTS, '1280x800', 'demo-growth.png') });
    expect(ui.errors).toEqual([]);
  }, 600_000);
});
