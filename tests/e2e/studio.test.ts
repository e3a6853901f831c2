// End to end in headless Chromium against the web host: open a native trace file, score it with a
// generated fixture model, see the heatmap, open a trace, drag the K slider and watch the kept set and
// the curve move, edit and approve a space, export it, reload and find everything persisted.
// Screenshots of every view at 1280×800 and 1920×1080 land in artifacts/screenshots/ (git-ignored).
//
// Every case stands alone: it opens its own page (a fresh browser context) on the project it needs.
// The one shared setup, in beforeAll, is a scored project made through the engine service (what the
// "scores the project" case does through the UI, on a small project of its own); a case that changes a
// project (approving a space, exporting it) works on its own copy of it.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { JobInfo } from '../../shared/api';
import { labelWidth } from '../../renderer/heatmap/painter';
import { describeRequiring } from '../describe-requiring';
import { ensureRendererBuilt, launchChromium, openStudioPage, ROOT, SHOTS, SIZES, startStudio, type Studio, type StudioPage } from './studio';
import { makeLineTraces, toJsonl } from './fixtures';

let studio: Studio;
let browser: Browser;
let work: string;
/** The trace file of the shared project: 24 requests of fx_settle and one broken line. */
let traceFile: string;
/** The shared project, imported and scored in beforeAll; cases that change a project copy it first. */
let scoredDir: string;
let copies = 0;
/** The page of the case running now (opened by `fresh`, closed after the case). */
let ui: StudioPage | undefined;
let page: Page;

const settle = (): Promise<void> => ui!.settle();
const go = (view: string): Promise<void> => ui!.go(view);
const shot = (name: string): Promise<void> => ui!.shot(name);

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

/** A new folder under the run's work folder. */
function freshDir(name: string): string {
  return join(work, `${name}-${++copies}`);
}

/** The project the case works on: 'scored' (shared, not to be changed), 'copy' (a copy of it, the
 * case's own), a new empty project, or one made by the case; null closes the project. Then a fresh page
 * at the Studio. */
async function fresh(project: 'scored' | 'copy' | 'empty' | { dir: string } | null, options: { acceptDownloads?: boolean } = {}): Promise<void> {
  if (project === null) await studio.service.closeProject();
  else if (typeof project === 'object') await studio.service.openProject(project);
  else if (project === 'scored') await studio.service.openProject({ dir: scoredDir });
  else if (project === 'copy') {
    const dir = freshDir('copy');
    cpSync(scoredDir, dir, { recursive: true });
    await studio.service.openProject({ dir });
  } else await studio.service.createProject({ dir: freshDir('empty'), name: 'my-agent' });
  ui = await openStudioPage(browser, studio.host.openUrl, options);
  page = ui.page;
}

async function waitForJob(job: JobInfo): Promise<void> {
  for (;;) {
    const now = (await studio.service.listJobs()).find((j) => j.id === job.id);
    if (now?.status === 'done') return;
    if (!now || ['failed', 'cancelled', 'interrupted'].includes(now.status))
      throw new Error(`job ${job.title}: ${now?.status ?? 'gone'} ${now?.error?.message ?? ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The left edge of the first tool column of the heatmap, from the painter's own layout rule. */
async function firstColumnX(): Promise<{ x: number; y: number }> {
  const scroller = page.locator('[data-testid="heatmap-scroller"]');
  const box = (await scroller.boundingBox())!;
  const frameWidth = await scroller.evaluate((el) => el.clientWidth);
  return { x: box.x + labelWidth(frameWidth) + 10, y: box.y };
}

/** Sets K on the Budget view from the keyboard: Home (K = 0), then `k` steps right. */
async function setK(k: number): Promise<void> {
  await go('budget');
  await page.waitForSelector('[data-testid="k-slider"]');
  await page.focus('[data-testid="k-slider"]');
  await page.keyboard.press('Home');
  for (let i = 0; i < k; i++) await page.keyboard.press('ArrowRight');
  await settle();
  expect(await page.textContent('[data-testid="k-value"]')).toBe(`K = ${k}`);
}

/** On the Space view at K = 2: pins the 4th tool (outside K); returns it. The list keeps the focus. */
async function pinFourth(): Promise<string> {
  await setK(2);
  await go('space');
  await page.waitForSelector('[data-testid="space-list"]');
  await page.focus('[data-testid="space-list"]');
  // Cursor to the 4th tool (outside K = 2) and pin it.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('p');
  const pinned = (await page.locator('.space-row.cursor').getAttribute('data-tool'))!;
  expect(await page.textContent('[data-testid="space-diff"]')).toContain(pinned);
  expect(await page.isDisabled('[data-testid="approve-space"]')).toBe(true); // an edit needs a note
  return pinned;
}

async function writeNote(pinned: string): Promise<void> {
  await page.fill('[data-testid="space-note"]', `keep ${pinned}: the finance agents call it on every invoice`);
}

describeRequiring('chromium', 'the Studio in Chromium', () => {
  beforeAll(async () => {
    ensureRendererBuilt();
    work = mkdtempSync(join(tmpdir(), 'lots-e2e-'));
    traceFile = join(work, 'fx_settle.jsonl');
    // 24 requests of one task, 10 tools on the registry, 7 served per request; one broken line.
    writeFileSync(traceFile, toJsonl(makeLineTraces({ task: 'fx_settle', requests: 24, tools: 10, exposed: 7 })) + '{"v":1,"id":"broken"\n');
    studio = await startStudio(join(work, 'config'));
    // The shared scored project, through the service as the Jobs view would (the reference model is
    // then the recent model the Jobs view offers).
    scoredDir = join(work, 'scored');
    await studio.service.createProject({ dir: scoredDir, name: 'my-agent' });
    await studio.service.importTraces({ paths: [traceFile] });
    const model = await studio.service.prepareReferenceModel();
    await waitForJob(await studio.service.startScoring({ model: model.path }));
    await studio.service.closeProject();
    browser = await launchChromium();
  }, 420_000);

  afterEach(async () => {
    const errors = ui?.errors ?? [];
    await ui?.close();
    ui = undefined;
    // No page errors, CSP violations included.
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    studio?.service.dispose();
    await studio?.close();
  });

  it('starts without a project and says what to do', async () => {
    await fresh(null);
    await page.waitForSelector('[data-testid="view-home"]');
    await page.waitForSelector('text=Start with your agent');
    expect(page.url()).not.toContain('token=');
    await shots('01-home-empty');
  });

  it('creates a project and imports a native trace file, reporting the bad line by number', async () => {
    await fresh(null);
    await page.click('[data-testid="new-project"]');
    await page.fill('input[aria-label="Project folder"]', freshDir('my-agent'));
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
    await fresh('empty');
    await page.waitForSelector('text=No traces yet');
    const text = toJsonl(
      makeLineTraces({ task: 'table_total', requests: 6, tools: 6, exposed: 4, seed: 5 }).map((t) => ({ ...t, id: t.id.replace('table_total', 'tt') })),
    );
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
    await fresh(null);
    await go('models');
    await page.click('button:has-text("Built-in reference model")');
    await page.waitForSelector('[data-testid="model-info"]');
    expect(await page.textContent('[data-testid="model-info"]')).toContain('Fits');
    await page.waitForSelector('[data-testid="downloads"] >> text=offline');
    await shots('03-models');
  });

  it('scores the project with the generated fixture model', async () => {
    // A small project of its own: 6 requests of one task.
    const file = join(work, 'table_total.jsonl');
    writeFileSync(file, toJsonl(makeLineTraces({ task: 'table_total', requests: 6, tools: 6, exposed: 4, seed: 5 })));
    const dir = freshDir('to-score');
    await studio.service.createProject({ dir, name: 'to-score' });
    await studio.service.importTraces({ paths: [file] });
    await fresh({ dir });
    // The Models view offers the recent model (the reference model the shared project was scored with).
    await go('models');
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-testid="model-path"]')?.value.endsWith('.gguf'));
    await go('jobs');
    expect(await page.inputValue('[data-testid="score-model"]')).toMatch(/\.gguf$/);
    const before = new Set((await studio.service.listJobs()).map((j) => j.id));
    await page.click('[data-testid="start-scoring"]');
    // The import before it is a job too, and so is the shared project's scoring: wait for this scoring job.
    await page.waitForFunction(
      (known) => [...document.querySelectorAll('[data-kind="score"]')].some((el) => !known.includes(el.getAttribute('data-job') ?? '')),
      [...before],
    );
    const job = (await studio.service.listJobs()).find((j) => j.kind === 'score' && !before.has(j.id))!;
    await page.waitForSelector(`[data-job="${job.id}"][data-status="done"]`, { timeout: 240_000 });
    await shots('04-jobs');
  }, 300_000);

  it('draws the heatmap, hovers a cell, sorts by a column', async () => {
    await fresh('scored');
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
    await page.waitForSelector('[data-testid="heatmap-legend"]');
    expect(await page.inputValue('select[aria-label="Task"]')).toBe('fx_settle');
    await shots('05-heatmap');
    readmeShot('05-heatmap', 'heatmap');
    const first = await firstColumnX();
    await page.mouse.move(first.x, first.y + 150);
    await page.waitForSelector('.heatmap-tip >> text=I =');
    await shot('05b-heatmap-hover');
    // Click the first column header: rows sorted by the top tool.
    await page.mouse.click(first.x, first.y + 40);
    await page.waitForSelector('text=sorted by');
  });

  it('opens a trace from a cell, with the removed evidence and per-token changes', async () => {
    await fresh('scored');
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
    // Sorted by the first column (the top tool), the rows on top are the requests that were served it.
    const first = await firstColumnX();
    await page.mouse.click(first.x, first.y + 40);
    await page.waitForSelector('text=sorted by');
    await settle();
    await page.mouse.click(first.x, first.y + 150);
    await page.waitForSelector('[data-testid="view-trace"]');
    await page.waitForSelector('[data-testid="intervention-note"]');
    expect(await page.textContent('[data-testid="intervention-note"]')).toContain('CurrencyConvert');
    await page.waitForSelector('.line-row.removed');
    await page.waitForSelector('.token-strip .token-col');
    await shots('06-trace');
  });

  it('ranks the tools with intervals', async () => {
    await fresh('scored');
    await go('ranking');
    await page.waitForSelector('[data-testid="ranking-table"] tbody tr');
    expect(await page.textContent('[data-testid="ranking-table"] tbody tr:first-child')).toContain('CurrencyConvert');
    await shots('07-ranking');
  });

  it('moves the K slider: the kept set and the curve marker follow', async () => {
    await fresh('scored');
    await go('budget');
    await page.waitForSelector('[data-testid="k-slider"]');
    const kept = async () => await page.locator('[data-testid="kept-set"] .chip').allTextContents();
    const before = await kept();
    expect(before.length).toBeGreaterThanOrEqual(2);
    // The current-K marker is the chart label that starts with "K = ", on the F̂ chart (this project's traces carry
    // no correct/wrong labels, so its fitting-accuracy chart has nothing to draw).
    const marker = async () =>
      (await page.locator('[data-testid="budget-surrogate-chart"] svg text').allTextContents()).find((t) => t.startsWith('K = ')) ?? '';
    const markerBefore = await marker();
    // Drag the thumb to the left end with the mouse: K = 0 keeps nothing.
    const slider = (await page.locator('[data-testid="k-slider"]').boundingBox())!;
    const max = Number(await page.getAttribute('[data-testid="k-slider"]', 'max'));
    const value = Number(await page.inputValue('[data-testid="k-slider"]'));
    expect(value).not.toBe(2);
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
    await fresh('copy'); // the check's results are written to the project;
    await setK(2);
    await go('ranking');
    await page.click('[data-testid="run-faithfulness"]:has-text("K = 2")');
    await page.waitForSelector('[data-testid="faithfulness-table"] tbody tr', { timeout: 120_000 });
    expect(await page.textContent('[data-testid="faithfulness-verdict"]')).toMatch(
      /^Removing the top 2 tools together lowers the answer's log-likelihood by \d\.\d+ per token/,
    );
    await shot('08b-faithfulness');
  }, 150_000);

  it('edits and approves the space from the keyboard, with a note, and finds it after a reload', async () => {
    await fresh('copy');
    const pinned = await pinFourth();
    await page.keyboard.press('?');
    await page.waitForSelector('[role="dialog"][aria-label="Keyboard shortcuts"]');
    await shot('09b-cheatsheet');
    await page.keyboard.press('Escape');
    await writeNote(pinned);
    await shots('09-space-draft');
    await page.click('[data-testid="approve-space"]');
    await page.waitForSelector('[data-testid="space-history"] >> text=v0');
    await shots('10-space-approved');

    await page.reload();
    await page.waitForSelector('[data-testid="view-space"]');
    await go('home');
    await page.waitForSelector('[data-task="fx_settle"] >> text=approved');
    await go('space');
    await page.waitForSelector('[data-testid="space-history"] >> text=v0');
    expect(await page.textContent('[data-testid="space-history"]')).toContain(`keep ${pinned}: the finance agents call it`);
    await go('budget');
    expect(await page.textContent('[data-testid="k-value"]')).toBe('K = 2');
    expect(await page.locator('[data-testid="kept-set"] .chip').count()).toBe(3);
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
    await shots('12-heatmap-after-approval');
  });

  it('exports the approved space as OpenAI tools, downloads it, and finds the export after a reload', async () => {
    await fresh('copy', { acceptDownloads: true });
    await writeNote(await pinFourth());
    await page.click('[data-testid="approve-space"]');
    await page.waitForSelector('[data-testid="space-history"] >> text=v0');
    await go('export');
    await page.click('[data-format="openai"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent?.trim().startsWith('['));
    await page.waitForSelector('[data-testid="export-version"]');
    const text = await page.textContent('[data-testid="export-text"]');
    // Pinned tools in full (with their schema), then the deferred ones demoted: name and short description only.
    const tools = JSON.parse(text!) as { function: { name: string; parameters?: unknown } }[];
    expect(tools.filter((t) => t.function.parameters !== undefined).map((t) => t.function.name)).toHaveLength(3);
    expect(tools.slice(3).every((t) => t.function.parameters === undefined)).toBe(true);
    expect(tools[0]!.function.name).toBe('CurrencyConvert');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-export"]')]);
    expect(download.suggestedFilename()).toBe('fx_settle.openai-tools.json');
    expect(JSON.parse(readFileSync(await download.path(), 'utf8'))).toEqual(tools);
    await shots('11-export');
    await page.reload();
    await page.waitForSelector('[data-testid="view-export"]');
    await page.waitForSelector('[data-testid="export-version"]');
  });

  it('renders the dark theme', async () => {
    await fresh('scored');
    await go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"]');
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
    await fresh(null);
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
});
