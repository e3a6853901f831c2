// Issues 39 and 40 in Chromium on the bundled sample project, for the Space, History, Jobs and Demo
// views: the Space view has one K slider and confirms an approval beside its button, not over the
// version history; History names its run by model and date, says where the folded space differs from
// the deployed one, and draws each running-score line with its own dash; Jobs lists the project's
// finished runs and defaults to the intervention the sample was scored with; the Demo view's family
// table keeps its header row in place instead of over the rows, shows the reference rows with their definitions,
// and shows a differing request under both menus side by side; the view-only link disables writes
// with the reason and the page meets no refused call. Screenshots at 1280×800 and 1920×1080 land in
// artifacts/screenshots/ (named ui-*).
import { expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { openStudioPage, SIZES, useStudioPage } from './studio';

describeRequiring('chromium', 'Space, History, Jobs and Demo as a stakeholder reads them (issues 39, 40)', () => {
  const session = useStudioPage('ui-views');

  it('Demo: the family table header never shows a row above it; reference rows explained; a difference under both menus', async () => {
    const { page, ui } = session;
    await page.click('[data-testid="open-sample"]');
    await page.waitForSelector('[data-testid="demo-story"]');
    await ui.settle();
    // The sample carries the reference rows (the standard run evaluated with them): each with its definition.
    const referenceRows = await page
      .locator('[data-testid="demo-reference-table"] tbody tr')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-method')));
    expect(referenceRows).toEqual(['lots', 'oracle', 'lots-k2', 'lots-k4', 'lots-deferred', 'keep-all']);
    expect(await page.locator('[data-testid="demo-deferred-calls"]').textContent()).toMatch(/^Asked for a deferred tool on \d+ of 400 requests/);
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => (document.querySelector('[data-testid="view-demo"]')!.scrollTop = 0));
      await ui.settle();
      await ui.shot('ui-demo-top');
      // Scroll the view so the family table's middle is at the top of the view.
      await page.evaluate(() => {
        const view = document.querySelector('[data-testid="view-demo"]')!;
        const row = document.querySelectorAll('[data-testid="demo-families"] tbody tr')[4]!;
        view.scrollTop += row.getBoundingClientRect().top - view.getBoundingClientRect().top - 10;
      });
      await ui.settle();
      await ui.shot('ui-demo-families-scrolled');
      // The header row is where the table begins or, scrolled past, stuck at the view's very top edge: never
      // lower, where the rows scrolled past would show above it (it once stuck below the view's padding).
      const place = await page.evaluate(() => {
        const view = document.querySelector<HTMLElement>('[data-testid="view-demo"]')!;
        const table = document.querySelector<HTMLElement>('[data-testid="demo-families"]')!;
        const th = table.querySelector<HTMLElement>('thead th')!;
        return { th: th.getBoundingClientRect().top, table: table.getBoundingClientRect().top, view: view.getBoundingClientRect().top };
      });
      expect(place.table).toBeLessThan(place.view);
      expect(Math.round(place.th)).toBe(Math.round(place.view));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('[data-testid="demo-lots-only"] button.diff-item').first().click();
    await page.waitForSelector('[data-testid="demo-diff-lots"] li[data-tool]');
    expect(await page.locator('[data-testid="demo-diff-compare"]').textContent()).toContain('executed again with only its tools');
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.locator('[data-testid="demo-diff-compare"]').scrollIntoViewIfNeeded();
      await ui.settle();
      await ui.shot('ui-demo-compare');
    }
    await page.locator('[data-testid="demo-reference"]').scrollIntoViewIfNeeded();
    await ui.settle();
    await ui.shot('ui-demo-reference');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(ui.errors).toEqual([]);
  });

  it('Space: one K slider; History: run by name, the folded space against the deployed one, lines apart; Jobs: finished runs', async () => {
    const { page, ui } = session;
    await page.click('button[aria-label="Space of fx_settle"]');
    await page.waitForSelector('[data-testid="space-list"]');
    await ui.settle();
    expect(await page.locator('input[type="range"]').count()).toBe(1);
    // Each row's actions start right of its status pills.
    const rows = await page.locator('[data-testid="space-list"] [data-tool]').evaluateAll((els) =>
      els.map((r) => {
        const status = r.querySelector('.status-cell')!.getBoundingClientRect();
        const actions = r.querySelector('.row-actions button')!.getBoundingClientRect();
        return actions.left - status.right;
      }),
    );
    for (const gap of rows) expect(gap).toBeGreaterThanOrEqual(0);
    // The head row's columns line up with the rows' (each row is its own grid).
    const columns = await page
      .locator('[data-testid="space-list"] .space-row')
      .evaluateAll((els) => els.slice(0, 3).map((r) => [...r.children].map((c) => Math.round(c.getBoundingClientRect().left)).join(',')));
    expect(new Set(columns).size).toBe(1);
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await ui.settle();
      await ui.shot('ui-space');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await ui.go('history');
    await page.waitForSelector('[data-testid="history-summary"]');
    const summary = (await page.locator('[data-testid="history-summary"]').textContent())!;
    expect(summary).not.toMatch(/[0-9a-f]{16}\|/);
    expect(summary).toContain('.gguf · reexecute · answer');
    expect(await page.locator('[data-testid="history-differs"]').textContent()).toContain('The folded space is not the deployed one');
    const dashes = await page
      .locator('[data-testid="history-trajectory"] path.recharts-line-curve')
      .evaluateAll((ps) => ps.map((p) => p.getAttribute('stroke-dasharray') ?? ''));
    expect(dashes.length).toBeGreaterThan(2);
    expect(new Set(dashes).size).toBe(dashes.length);
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await ui.settle();
      await ui.shot('ui-history');
      await page.locator('[data-testid="history-trajectory"]').scrollIntoViewIfNeeded();
      await ui.settle();
      await ui.shot('ui-history-lines');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await ui.go('jobs');
    await page.waitForSelector('[data-testid="stored-runs"]');
    expect(await page.locator('[data-testid="score-intervention"]').inputValue()).toBe('reexecute');
    expect(await page.locator('[data-testid="score-why"]').textContent()).toContain('Score needs a model');
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await ui.settle();
      await ui.shot('ui-jobs');
    }
    await ui.go('space');
    await page.waitForSelector('[data-testid="space-list"]');
    // Approve an edit: the confirmation sits beside the button and nothing floats over the version history.
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.click('button[aria-label="Pin Translate"]');
      await page.fill('[data-testid="space-note"]', `pin Translate (${w} px)`);
      await page.click('[data-testid="approve-space"]');
      await page.waitForSelector('[data-testid="space-approved"]');
      await page.waitForSelector(`[data-testid="space-history"] >> text=pin Translate (${w} px)`);
      await ui.settle();
      const covered = await page.evaluate(() => {
        const history = document.querySelector('[data-testid="space-history"]')!.getBoundingClientRect();
        return [...document.querySelectorAll('.notice')].some((n) => {
          const r = n.getBoundingClientRect();
          return r.left < history.right && r.right > history.left && r.top < history.bottom && r.bottom > history.top;
        });
      });
      expect(covered).toBe(false);
      await ui.shot('ui-space-approved');
      // Back to the swept space for the views after this one.
      await page.click('button[aria-label="Pin Translate"]');
      await page.fill('[data-testid="space-note"]', 'unpin Translate');
      await page.click('[data-testid="approve-space"]');
      await page.waitForSelector('[data-testid="space-history"] >> text=unpin Translate');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(ui.errors).toEqual([]);
  });

  it('the view-only link: write actions disabled with the reason, and no call refused', async () => {
    const { studio, browser } = session;
    const viewer = await openStudioPage(browser, studio.host.viewUrl);
    try {
      const { page } = viewer;
      await page.waitForSelector('[data-testid="view-home"], [data-testid^="view-"]');
      await viewer.go('space');
      await page.waitForSelector('[data-testid="space-list"]');
      expect(await page.locator('[data-testid="approve-space"]').isDisabled()).toBe(true);
      expect(await page.locator('[data-testid="approve-why"]').textContent()).toContain('view-only link');
      expect(await page.locator('[data-testid="view-only-note"]').count()).toBe(1);
      await viewer.settle();
      await viewer.shot('ui-space-view-only');
      await viewer.go('jobs');
      expect(await page.locator('[data-testid="start-scoring"]').count()).toBe(0);
      await viewer.go('demo');
      await page.waitForSelector('[data-testid="demo-story"]');
      expect(await page.locator('[data-testid="demo-run"]').count()).toBe(0);
      expect(await page.locator('[data-testid="demo-build"]').isDisabled()).toBe(true);
      await viewer.settle();
      await viewer.shot('ui-demo-view-only');
      expect(viewer.errors).toEqual([]);
    } finally {
      await viewer.close();
    }
  });
});
