// End to end in headless Chromium against the web host: open a native trace file, score it with a
// generated fixture model, see the heatmap, open a trace, drag the K slider and watch the kept set and
// the curve move, edit and approve a space, export it, reload and find everything persisted.
// Screenshots of every view at 1280×800 and 1920×1080 land in artifacts/screenshots/ (git-ignored).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeRequiring } from '../describe-requiring';
import { ensureRendererBuilt, launchChromium, ROOT, startStudio, type Studio } from './studio';
import { makeLineTraces, toJsonl } from './fixtures';

const SHOTS = join(ROOT, 'artifacts', 'screenshots');
const SIZES = [[1280, 800], [1920, 1080]] as const;

let studio: Studio;
let browser: Browser;
let page: Page;
let traceFile: string;
let projectDir: string;
const pageErrors: string[] = [];

async function shot(name: string, target: Page = page): Promise<void> {
  const vp = target.viewportSize()!;
  const dir = join(SHOTS, `${vp.width}x${vp.height}`);
  mkdirSync(dir, { recursive: true });
  await target.screenshot({ path: join(dir, `${name}.png`) });
}

/** Screenshots of one view at every size (the page is resized and put back). Confirmations are
 * dismissed first so they do not cover the view; errors would fail the test anyway. */
async function shots(name: string): Promise<void> {
  for (const close of await page.locator('.notice.success .notice-close, .notice.info .notice-close').all()) await close.click();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const original = page.viewportSize()!;
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await settle();
    await shot(name);
  }
  await page.setViewportSize(original);
  await settle();
}

/** LOTS_README_SHOTS=1 refreshes the README's screenshots (assets/screenshots/, tracked) from this run. */
function readmeShot(name: string, as: string): void {
  if (!process.env.LOTS_README_SHOTS) return;
  mkdirSync(join(ROOT, 'assets', 'screenshots'), { recursive: true });
  copyFileSync(join(SHOTS, '1280x800', `${name}.png`), join(ROOT, 'assets', 'screenshots', `${as}.png`));
}

async function settle(): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120)))));
}

async function go(view: string): Promise<void> {
  await page.click(`nav [data-view="${view}"]`);
  await page.waitForSelector(`[data-testid="view-${view}"]`);
  await settle();
}

describeRequiring('chromium', 'the Studio in Chromium', () => {
  beforeAll(async () => {
    ensureRendererBuilt();
    const work = mkdtempSync(join(tmpdir(), 'lots-e2e-'));
    projectDir = join(work, 'my-agent');
    traceFile = join(work, 'fx_settle.jsonl');
    // 24 requests of one task, 10 tools on the registry, 7 served per request; one broken line.
    writeFileSync(traceFile, toJsonl(makeLineTraces({ task: 'fx_settle', requests: 24, tools: 10, exposed: 7 })) + '{"v":1,"id":"broken"\n');
    studio = await startStudio(join(work, 'config'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    studio?.service.dispose();
    await studio?.close();
  });

  it('starts without a project and says what to do', async () => {
    await page.goto(studio.host.openUrl);
    await page.waitForSelector('[data-testid="view-home"]');
    await page.waitForSelector('text=Start with your agent');
    expect(page.url()).not.toContain('token=');
    await shots('01-home-empty');
  });

  it('creates a project and imports a native trace file, reporting the bad line by number', async () => {
    await page.click('[data-testid="new-project"]');
    await page.fill('input[aria-label="Project folder"]', projectDir);
    await page.click('button:has-text("Create")');
    await page.waitForSelector('text=No traces yet');
    await page.setInputFiles('[data-testid="trace-file-input"]', traceFile);
    await page.waitForSelector('[data-testid="import-report"]');
    const report = await page.textContent('[data-testid="import-report"]');
    expect(report).toContain('24 added');
    expect(report).toMatch(/fx_settle\.jsonl:25:/);
    await page.waitForSelector('[data-task="fx_settle"]');
    await shots('02-home-imported');
  });

  it('imports a trace file dropped on the window', async () => {
    const text = toJsonl(makeLineTraces({ task: 'table_total', requests: 6, tools: 6, exposed: 4, seed: 5 }).map((t) => ({ ...t, id: t.id.replace('table_total', 'tt') })));
    await page.evaluate(async (content) => {
      const file = new File([content], 'dropped.jsonl', { type: 'application/jsonl' });
      const dt = new DataTransfer();
      dt.items.add(file);
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
      window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForSelector('[data-task="table_total"]');
    expect(await page.textContent('[data-testid="import-report"]')).toContain('dropped.jsonl');
  });

  it('shows the models view with the reference model and says plainly that downloads are offline', async () => {
    await go('models');
    await page.click('button:has-text("Built-in reference model")');
    await page.waitForSelector('[data-testid="model-info"]');
    expect(await page.textContent('[data-testid="model-info"]')).toContain('Fits');
    await page.waitForSelector('[data-testid="downloads"] >> text=offline');
    await shots('03-models');
  });

  it('scores the project with the generated fixture model', async () => {
    await go('jobs');
    expect(await page.inputValue('[data-testid="score-model"]')).toMatch(/\.gguf$/);
    await page.click('[data-testid="start-scoring"]');
    // The imports before it are jobs too (done already): wait for the scoring job itself.
    await page.waitForSelector('[data-kind="score"][data-status="done"]', { timeout: 240_000 });
    await shots('04-jobs');
  }, 300_000);

  it('draws the heatmap, hovers a cell, sorts by a column', async () => {
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
    await page.waitForSelector('[data-testid="heatmap-legend"]');
    expect(await page.inputValue('select[aria-label="Task"]')).toBe('fx_settle');
    await shots('05-heatmap');
    readmeShot('05-heatmap', 'heatmap');
    const box = (await page.locator('[data-testid="heatmap-scroller"]').boundingBox())!;
    const labelW = Math.min(300, Math.max(200, Math.floor(box.width * 0.22)));
    await page.mouse.move(box.x + labelW + 10, box.y + 150);
    await page.waitForSelector('.heatmap-tip >> text=I =');
    await shot('05b-heatmap-hover');
    // Click the first column header: rows sorted by the top tool.
    await page.mouse.click(box.x + labelW + 10, box.y + 40);
    await page.waitForSelector('text=sorted by');
  });

  it('opens a trace from a cell, with the removed evidence and per-token changes', async () => {
    const box = (await page.locator('[data-testid="heatmap-scroller"]').boundingBox())!;
    const labelW = Math.min(300, Math.max(200, Math.floor(box.width * 0.22)));
    await page.mouse.click(box.x + labelW + 10, box.y + 150);
    await page.waitForSelector('[data-testid="view-trace"]');
    await page.waitForSelector('[data-testid="intervention-note"]');
    expect(await page.textContent('[data-testid="intervention-note"]')).toContain('CurrencyConvert');
    await page.waitForSelector('.line-row.removed');
    await page.waitForSelector('.token-strip .token-col');
    await shots('06-trace');
  });

  it('ranks the tools with intervals', async () => {
    await go('ranking');
    await page.waitForSelector('[data-testid="ranking-table"] tbody tr');
    expect(await page.textContent('[data-testid="ranking-table"] tbody tr:first-child')).toContain('CurrencyConvert');
    await shots('07-ranking');
  });

  it('moves the K slider: the kept set and the curve marker follow', async () => {
    await go('budget');
    await page.waitForSelector('[data-testid="k-slider"]');
    const kept = async () => (await page.locator('[data-testid="kept-set"] .chip').allTextContents());
    const before = await kept();
    // The current-K marker is the chart label that starts with "K = ".
    const marker = async () => (await page.locator('[data-testid="budget-fit-chart"] svg text').allTextContents()).find((t) => t.startsWith('K = ')) ?? '';
    const markerBefore = await marker();
    // Drag the thumb to the left end with the mouse: K = 0 keeps nothing.
    const slider = (await page.locator('[data-testid="k-slider"]').boundingBox())!;
    const max = Number(await page.getAttribute('[data-testid="k-slider"]', 'max'));
    const value = Number(await page.inputValue('[data-testid="k-slider"]'));
    const thumbX = slider.x + 8 + ((slider.width - 16) * value) / max;
    await page.mouse.move(thumbX, slider.y + slider.height / 2);
    await page.mouse.down();
    await page.mouse.move(slider.x - 20, slider.y + slider.height / 2, { steps: 8 });
    await page.mouse.up();
    await settle();
    expect(await page.textContent('[data-testid="k-value"]')).toBe('K = 0');
    expect(await kept()).toEqual([]);
    // Then two steps with the keyboard.
    await page.focus('[data-testid="k-slider"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await settle();
    expect(await page.textContent('[data-testid="k-value"]')).toBe('K = 2');
    const after = await kept();
    expect(after).toEqual(before.slice(0, 2));
    expect(after[0]).toBe('CurrencyConvert');
    expect(await marker()).not.toBe(markerBefore);
    expect(await marker()).toContain('K = 2');
    await shots('08-budget');
    readmeShot('08-budget', 'budget');
    // The heatmap greys the tools outside the space (checked on the model the canvas draws).
  });

  it('runs the faithfulness check at K = 2 from the ranking: joint, additive and random drops', async () => {
    await go('ranking');
    await page.click('[data-testid="run-faithfulness"]:has-text("K = 2")');
    await page.waitForSelector('[data-testid="faithfulness-table"] tbody tr', { timeout: 120_000 });
    expect(await page.textContent('[data-testid="faithfulness-verdict"]')).toMatch(/^Removing the top 2 tools together lowers the answer's log-likelihood by \d\.\d+ per token/);
    await shot('08b-faithfulness');
  }, 150_000);

  it('edits and approves the space from the keyboard, with a note', async () => {
    await go('space');
    await page.waitForSelector('[data-testid="space-list"]');
    await page.focus('[data-testid="space-list"]');
    // Cursor to the 4th tool (outside K = 2) and pin it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('p');
    const pinned = await page.locator('.space-row.cursor').getAttribute('data-tool');
    expect(await page.textContent('[data-testid="space-diff"]')).toContain(pinned!);
    expect(await page.isDisabled('[data-testid="approve-space"]')).toBe(true); // an edit needs a note
    await page.keyboard.press('?');
    await page.waitForSelector('[role="dialog"][aria-label="Keyboard shortcuts"]');
    await shot('09b-cheatsheet');
    await page.keyboard.press('Escape');
    await page.fill('[data-testid="space-note"]', `keep ${pinned}: the finance agents call it on every invoice`);
    await shots('09-space-draft');
    await page.click('[data-testid="approve-space"]');
    await page.waitForSelector('[data-testid="space-history"] >> text=v0');
    await shots('10-space-approved');
  });

  it('exports the approved space as OpenAI tools and downloads it', async () => {
    await go('export');
    await page.click('[data-format="openai"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent?.trim().startsWith('['));
    await page.waitForSelector('[data-testid="export-version"]');
    const text = await page.textContent('[data-testid="export-text"]');
    const tools = JSON.parse(text!) as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toHaveLength(3);
    expect(tools[0]!.function.name).toBe('CurrencyConvert');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-export"]')]);
    expect(download.suggestedFilename()).toBe('fx_settle.openai-tools.json');
    expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toEqual(tools);
    await shots('11-export');
  });

  it('finds everything persisted after a reload', async () => {
    await page.reload();
    await page.waitForSelector('[data-testid="view-export"]');
    await page.waitForSelector('[data-testid="export-version"]');
    await go('home');
    await page.waitForSelector('[data-task="fx_settle"] >> text=approved');
    await go('space');
    await page.waitForSelector('[data-testid="space-history"] >> text=v0');
    expect(await page.textContent('[data-testid="space-history"]')).toContain('the finance agents call it');
    await go('budget');
    expect(await page.textContent('[data-testid="k-value"]')).toBe('K = 2');
    expect(await page.locator('[data-testid="kept-set"] .chip').count()).toBe(3);
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
    await shots('12-heatmap-after-approval');
  });

  it('renders the dark theme', async () => {
    await page.click('button[aria-label="Toggle dark theme"]');
    await settle();
    await shots('13-heatmap-dark');
    await go('budget');
    await shots('14-budget-dark');
    await go('trace');
    await shots('15-trace-dark');
    await page.click('button[aria-label="Toggle dark theme"]');
  });

  it('walks the demo: build → score → rank → sweep → approve → export', async () => {
    await go('demo');
    await shots('16-demo');
    await page.click('[data-testid="demo-build"]');
    await page.waitForSelector('[aria-label="Demo task"]');
    expect(await page.inputValue('[aria-label="Demo task"]')).toBe('fx_settle');
    await page.click('[data-testid="demo-score"]');
    await page.waitForSelector('[data-testid="demo-rank"]:not([disabled])', { timeout: 300_000 });
    await shots('17-demo-scored');
    await page.click('[data-testid="demo-rank"]');
    await page.waitForSelector('[data-testid="ranking-table"] tbody tr');
    await go('demo');
    await page.click('[data-testid="demo-sweep"]');
    await page.waitForSelector('[data-testid="demo-approve"]:not([disabled])', { timeout: 300_000 });
    await go('budget');
    await page.waitForSelector('text=Best K by measured fitting accuracy');
    await shots('18-demo-budget-swept');
    await go('demo');
    await page.click('[data-testid="demo-approve"]');
    await page.waitForSelector('[data-testid="demo-export"]:not([disabled])');
    await page.click('[data-testid="demo-export"]');
    await page.waitForSelector('[data-testid="export-version"]');
    expect(await page.textContent('[data-testid="export-version"]')).toContain('v0');
    await go('demo');
    await shots('19-demo-done');
  }, 600_000);

  it('logged no page errors (CSP violations included)', () => {
    expect(pageErrors).toEqual([]);
  });
});
