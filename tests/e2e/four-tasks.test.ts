// Issue 40's four tasks — inspect an attribution, drag K, edit-approve-export, the demo — done on the
// bundled sample project with the keyboard only, as a user without a mouse does them: Tab walks the
// focus to a control (never `.focus()` or a click), the view keys (Alt+N) and the view's own keys do the
// rest. Each task asserts what the user came for (the cell's score on its trace, K one step lower and the
// kept set with it, an approved version whose export leaves the dropped tool out, a difference opened
// under both menus and on its trace). The keys pressed and the wall time of each task are written to
// artifacts/four-tasks.json for the closing note; they are measured, not asserted.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeRequiring } from '../describe-requiring';
import { openStudioPage, ROOT, SIZES, useStudioPage, type StudioPage } from './studio';

interface TaskFigure {
  task: string;
  keys: number;
  seconds: number;
}

/** The keyboard as a user presses it: every press counted. */
class Keyboard {
  presses = 0;
  constructor(private readonly page: Page) {}

  async press(key: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) {
      this.presses++;
      await this.page.keyboard.press(key);
    }
  }

  /** Typing counts one press a character. */
  async type(text: string): Promise<void> {
    this.presses += text.length;
    await this.page.keyboard.type(text);
  }

  /** Tab (forwards) until the focus is on an element matching `selector`; fails after `limit` presses. */
  async tabTo(selector: string, limit = 60): Promise<void> {
    for (let i = 0; i <= limit; i++) {
      if (await this.page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
      if (i < limit) await this.press('Tab');
    }
    const at = await this.page.evaluate(() => document.activeElement?.outerHTML.slice(0, 160) ?? 'nothing');
    throw new Error(`Tab did not reach ${selector} in ${limit} presses; the focus is on ${at}`);
  }
}

describeRequiring('chromium', 'the four stakeholder tasks, keyboard only (issue 40)', () => {
  const session = useStudioPage('four-tasks', { page: false });
  const figures: TaskFigure[] = [];
  let ui: StudioPage;
  let page: Page;
  let keys: Keyboard;

  /** Runs one task, counting its keys and timing it. */
  const task = async (name: string, body: () => Promise<void>): Promise<void> => {
    const before = keys.presses;
    const started = performance.now();
    await body();
    figures.push({ task: name, keys: keys.presses - before, seconds: Math.round(performance.now() - started) / 1000 });
    const out = join(ROOT, 'artifacts');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'four-tasks.json'), JSON.stringify({ viewport: '1280x800', figures }, null, 2) + '\n');
  };

  it('opens the sample from the first screen by keyboard', async () => {
    ui = await openStudioPage(session.browser, session.studio.host.openUrl, { acceptDownloads: true });
    page = ui.page;
    keys = new Keyboard(page);
    await page.waitForSelector('[data-testid="open-sample"]');
    await task('open the sample', async () => {
      // The first Tab stop skips the sidebar.
      await keys.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('skip-to-view');
      await keys.press('Enter');
      await keys.tabTo('[data-testid="open-sample"]', 3);
      await keys.press('Enter');
      await page.waitForSelector('[data-testid="demo-story"]');
    });
  });

  it('inspects an attribution: Heatmap, a cell, its trace with the score and the intervention', async () => {
    await task('inspect an attribution', async () => {
      await keys.press('Alt+2');
      await page.waitForSelector('[data-testid="heatmap-scroller"][data-visible-rows]');
      await keys.tabTo('[data-testid="heatmap-scroller"]');
      await keys.press('ArrowRight');
      const announced = (await page.locator('[data-testid="heatmap-live"]').textContent())!;
      const tool = announced.match(/^(\w+),/)![1]!;
      expect(announced).toMatch(/I = [+−]\d\.\d{3}\. Request 1 of \d+/);
      await keys.press('Enter');
      await page.waitForSelector('[data-testid="intervention-note"]');
      expect(await page.locator('[data-testid="intervention-note"]').textContent()).toContain(`on ${tool}`);
    });
    expect(ui.errors).toEqual([]);
  });

  it('drags K: the Budget slider one step down by keyboard, the kept set follows', async () => {
    await task('drag K', async () => {
      await keys.press('Alt+5');
      await page.waitForSelector('[data-testid="k-slider"]');
      const k = Number((await page.textContent('[data-testid="k-value"]'))!.replace('K = ', ''));
      expect(k).toBeGreaterThan(1);
      await keys.tabTo('[data-testid="k-slider"]');
      await keys.press('ArrowLeft');
      await ui.settle();
      expect(await page.textContent('[data-testid="k-value"]')).toBe(`K = ${k - 1}`);
    });
    expect(ui.errors).toEqual([]);
  });

  it('edits, approves and exports the space by keyboard; the export leaves the dropped tool out', async () => {
    let dropped = '';
    await task('edit, approve, export', async () => {
      await keys.press('Alt+6');
      await page.waitForSelector('[data-testid="space-list"]');
      await keys.tabTo('[data-testid="space-list"]');
      // The cursor starts on the top tool: drop it, write why, approve.
      dropped = (await page.locator('.space-row.cursor').getAttribute('data-tool'))!;
      await keys.press('x');
      expect(await page.textContent('[data-testid="space-diff"]')).toContain(dropped);
      await keys.press('n');
      await keys.type('the audience asked to see it without its top tool');
      await keys.press('Control+Enter');
      await page.waitForFunction(
        (note) => document.querySelector('[data-testid="space-history"]')?.textContent?.includes(note) ?? false,
        'the audience asked to see it without its top tool',
      );
      expect(await page.locator('[data-testid="space-list"] .space-row.cursor').getAttribute('data-tool')).toBe(dropped);
      await keys.press('Alt+8');
      await page.waitForSelector('[data-testid="export-version"]');
      await keys.tabTo('[data-format]');
      const format = (await page.evaluate(() => document.activeElement?.getAttribute('data-format')))!;
      const [download] = await Promise.all([page.waitForEvent('download'), keys.tabTo('[data-testid="save-export"]').then(() => keys.press('Enter'))]);
      const text = readFileSync(await download.path(), 'utf8');
      expect(text.length).toBeGreaterThan(2);
      expect(format).not.toBe('');
      expect(text).not.toContain(`"${dropped}"`);
    });
    expect(ui.errors).toEqual([]);
  });

  it('the demo: the Demo view, a request LOTS answered and keep-all did not, under both menus, then its trace', async () => {
    await task('the demo', async () => {
      await keys.press('Alt+0');
      await page.waitForSelector('[data-testid="demo-headline"]');
      expect(await page.locator('[data-testid="demo-headline"]').textContent()).toMatch(/95% interval/);
      // "Jump to" under the headline, then the first request of the list: not through every family's buttons.
      await keys.tabTo('[data-testid="demo-jump"] [data-target="demo-differences"]', 6);
      await keys.press('Enter');
      await keys.tabTo('[data-testid="demo-lots-only"] button.diff-item', 1);
      const id = (await page.evaluate(() => document.activeElement!.getAttribute('aria-label')))!.replace(/^Compare (.+) under both menus$/, '$1');
      await keys.press('Enter');
      await page.waitForSelector('[data-testid="demo-diff-lots"] li[data-tool]');
      // The focus went to the comparison: its first control is the trace.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('demo-diff-compare');
      await keys.tabTo('[data-testid="demo-diff-open-trace"]', 1);
      await keys.press('Enter');
      await page.waitForSelector(`.trace-side h2[title="${id}"]`);
    });
    expect(ui.errors).toEqual([]);
    expect(figures.map((f) => f.task)).toEqual(['open the sample', 'inspect an attribution', 'drag K', 'edit, approve, export', 'the demo']);
  });

  it('Escape closes a comparison and gives the focus back to its request', async () => {
    await keys.press('Alt+0');
    await keys.tabTo('[data-testid="demo-jump"] [data-target="demo-differences"]', 6);
    await keys.press('Enter');
    await keys.tabTo('[data-testid="demo-lots-only"] button.diff-item', 1);
    const id = await page.evaluate(() => document.activeElement!.getAttribute('data-request'));
    await keys.press('Enter');
    await page.waitForSelector('[data-testid="demo-diff-compare"]');
    await keys.press('Escape');
    expect(await page.locator('[data-testid="demo-diff-compare"]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-request'))).toBe(id);
  });

  it('Project: the task table and the scoring runs fit at both sizes (the last columns, "Review space" and the runs\' dates, were cut at 1280 px)', async () => {
    await keys.press('Alt+1');
    await page.waitForSelector('[data-testid="task-table"]');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await ui.settle();
      for (const table of ['task-table', 'runs-table']) {
        const overflow = await page.$eval(`[data-testid="${table}"]`, (t) => {
          const wrap = t.parentElement!;
          return wrap.scrollWidth - wrap.clientWidth;
        });
        expect(overflow, table).toBeLessThanOrEqual(0);
      }
      await ui.shot('issue40-home-fits');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('Space: no status pill and no tool name is cut off at either size, with two pills on a row; the history rule unbroken', async () => {
    await keys.press('Alt+6');
    await page.waitForSelector('[data-testid="space-list"]');
    await keys.tabTo('[data-testid="space-list"]');
    // A hidden tool pinned by hand ("pinned pin") and the top tool dropped before ("hidden removed"): the
    // second pill was cut to "rem" at 1280 px.
    await keys.press('ArrowDown', 6);
    await keys.press('p');
    const row = page.locator('.space-row.cursor');
    expect(await row.locator('.status-cell .pill').allInnerTexts()).toEqual(['pinned', 'pin']);
    expect(await page.locator('.space-row[data-index="0"] .status-cell .pill').allInnerTexts()).toEqual(['hidden', 'removed']);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await ui.settle();
      const clipped = await page.$$eval('[data-testid="space-list"] .status-cell', (cells) =>
        cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.closest('[data-tool]')?.getAttribute('data-tool')),
      );
      expect(clipped).toEqual([]);
      const names = await page.$$eval('[data-testid="space-list"] .space-row[data-tool] .mono', (cells) =>
        cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
      );
      expect(names).toEqual([]);
      // The version history's rule ("top-K, K = 4") wraps as a whole, not as "K =" over "4".
      const broken = await page.$$eval('[data-testid="space-history"] .history-item .nowrap', (parts) =>
        parts.filter((p) => p.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(p).fontSize) * 1.3).map((p) => p.textContent),
      );
      expect(await page.locator('[data-testid="space-history"] .history-item .nowrap').count()).toBeGreaterThan(0);
      expect(broken).toEqual([]);
      await ui.shot('issue40-space-pills');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(ui.errors).toEqual([]);
  });
});
