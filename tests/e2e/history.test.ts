// The History view on an imported project, as an operator meets it: three imports of a task, two scored;
// "Fold new batches" folds them, the timeline shows the running score of every tool after each batch with
// the tools that entered and left the proposal, the third import waits for its scores, nothing is
// approved; after its scores arrive a second fold adds batch 3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ProjectStore } from '../../electron/engine/store';
import type { Trace } from '../../shared/trace/schema';
import { describeRequiring } from '../describe-requiring';
import { ensureRendererBuilt, launchChromium, startStudio, type Studio } from './studio';

let work: string;
let studio: Studio;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const tools = ['Calculator', 'DocRetrieve', 'ExchangeRate'].map((name) => ({ name, description: `the ${name} tool` }));
const trace = (id: string): Trace => ({ v: 1, id, task: 'fx', tools, turns: [{ request: `request ${id}`, steps: [], answer: '42' }] });
const row = (trace: string, scores: Record<string, number>) => ({
  key: `import:prod|${trace}`,
  run: 'import:prod',
  trace,
  task: 'fx',
  exposed: tools.map((t) => t.name),
  scores,
});

describeRequiring('chromium', 'the History view', () => {
  let project: string;
  beforeAll(async () => {
    ensureRendererBuilt();
    work = mkdtempSync(join(tmpdir(), 'lots-e2e-history-'));
    project = join(work, 'p');
    const store = ProjectStore.create(project);
    store.addTraces([trace('a1'), trace('a2')], 'monday.jsonl');
    store.addTraces([trace('b1'), trace('b2')], 'tuesday.jsonl');
    store.addTraces([trace('c1')], 'wednesday.jsonl');
    store.appendScores([
      row('a1', { Calculator: 0.3, DocRetrieve: 0.0, ExchangeRate: 0.8 }),
      row('a2', { Calculator: 0.3, DocRetrieve: 0.2, ExchangeRate: 0.6 }),
      row('b1', { Calculator: 0.0, DocRetrieve: 0.9, ExchangeRate: 0.6 }),
      row('b2', { Calculator: 0.0, DocRetrieve: 0.9, ExchangeRate: 0.6 }),
    ]);
    studio = await startStudio(join(work, 'config'));
    await studio.service.openProject({ dir: project });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    await page.goto(studio.host.openUrl);
    // The project is open once its task is listed (the first route is set when the project arrives).
    await page.waitForSelector('[data-testid="view-home"] >> text=Review space');
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    studio?.service.dispose();
    await studio?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('folds the scored imports, shows tools entering and leaving per batch, and applies nothing', async () => {
    await page.evaluate(() => {
      location.hash = '#/history?task=fx';
    });
    await page.waitForSelector('[data-testid="history-view"]');
    expect(await page.textContent('[data-testid="history-summary"]')).toContain('no batch folded yet');
    expect(await page.textContent('[data-testid="history-waiting"]')).toContain('0001.jsonl (2 traces), 0002.jsonl (2 traces), 0003.jsonl (1 traces)');

    await page.fill('input[aria-label="EMA weight alpha"]', '0.5');
    await page.fill('input[aria-label="Budget K"]', '1');
    await page.click('[data-testid="fold-batches"]');
    await page.waitForSelector('[data-testid="history-timeline"]');
    expect(await page.textContent('[data-testid="history-summary"]')).toContain('2 batches folded · α = 0.5 · top-1 · run: imported: prod');
    // Batch 1: ExchangeRate (0.70) is the top-1; batch 2: DocRetrieve 0.5·0.9 + 0.5·0.1 = 0.50 < ExchangeRate 0.65.
    const cell = (tool: string, batch: number) => page.locator(`[data-testid="history-timeline"] tr[data-tool="${tool}"] td`).nth(batch - 1);
    expect(await cell('ExchangeRate', 1).getAttribute('data-change')).toBe('entered');
    expect(await cell('ExchangeRate', 1).getAttribute('data-in')).toBe('yes');
    expect((await cell('DocRetrieve', 2).textContent())?.trim()).toBe('+0.50');
    expect(await cell('DocRetrieve', 2).getAttribute('data-in')).toBe('no');
    expect(await cell('ExchangeRate', 2).getAttribute('title')).toMatch(/running \+0\.650/);
    expect(await page.textContent('[data-testid="history-waiting"]')).toContain('0003.jsonl (1 traces)');
    expect(await page.textContent('[data-testid="history-proposal"]')).toContain('no version approved yet · not applied');
    expect(ProjectStore.open(project).readSpaces('fx').versions).toEqual([]);
    await page.waitForSelector('[data-testid="history-trajectory"] svg');
  });

  it('a newly scored import folds as the next batch; a tool that overtakes enters and another leaves', async () => {
    ProjectStore.open(project).appendScores([row('c1', { Calculator: 0.0, DocRetrieve: 1.5, ExchangeRate: 0.2 })]);
    await page.click('[data-testid="fold-batches"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="history-summary"]')?.textContent?.includes('3 batches folded'));
    const cell = (tool: string) => page.locator(`[data-testid="history-timeline"] tr[data-tool="${tool}"] td`).nth(2);
    expect(await cell('DocRetrieve').getAttribute('data-change')).toBe('entered');
    expect(await cell('DocRetrieve').getAttribute('title')).toMatch(/DocRetrieve entered at batch 3: running \+1\.000 ≥ the cut \+1\.000/);
    const left = page.locator('[data-testid="history-timeline"] tr[data-tool="ExchangeRate"] td').nth(2);
    expect(await left.getAttribute('data-change')).toBe('left');
    expect(await page.locator('[data-testid="history-waiting"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="history-proposal"]')).toContain('DocRetrieve');
    expect(pageErrors).toEqual([]);
  });

  it("the Space view offers the update proposal; approving it records the update's rule and running scores", async () => {
    await page.evaluate(() => {
      location.hash = '#/space?task=fx';
    });
    await page.waitForSelector('[data-testid="space-update-proposal"]');
    expect(await page.textContent('[data-testid="space-update-proposal"]')).toMatch(
      /after batch 3 proposes DocRetrieve \(top-K, K = 1 of the running scores, α = 0\.5/,
    );
    await page.click('[data-testid="use-update-proposal"]');
    expect(await page.inputValue('[data-testid="space-note"]')).toContain('continual update after batch 3');
    await page.click('[data-testid="approve-space"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="approve-space"]')?.textContent?.includes('Approved as v0'));
    const v = ProjectStore.open(project).readSpaces('fx').versions;
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ tools: ['DocRetrieve'], rule: { kind: 'topk', k: 1 } });
    expect(v[0]!.runningScores!.DocRetrieve).toBeCloseTo(1.0, 12);
    expect(await page.locator('[data-testid="space-update-proposal"]').count()).toBe(0);
  });

  it("the Ranking view compares the shown run with another model's run of the same traces", async () => {
    const other = (trace: string, scores: Record<string, number>) => ({
      ...row(trace, scores),
      key: `import:model-b|${trace}`,
      run: 'import:model-b',
      modelName: 'other-model.gguf',
    });
    ProjectStore.open(project).appendScores([
      other('a1', { Calculator: 0.9, DocRetrieve: 0.1, ExchangeRate: 0.2 }),
      other('b1', { Calculator: 0.7, DocRetrieve: 0.3, ExchangeRate: 0.1 }),
    ]);
    await page.evaluate(() => {
      location.hash = '#/ranking?task=fx';
    });
    // The shown run is the latest (model-b); the card compares it with import:prod.
    await page.waitForSelector('[data-testid="compare-summary"]');
    const summary = await page.textContent('[data-testid="compare-summary"]');
    // model-b: Calculator 0.8 > DocRetrieve 0.2 > ExchangeRate 0.15; prod: DocRetrieve 0.75 > ExchangeRate 0.56 > Calculator 0.12
    expect(summary).toMatch(/Kendall τ -0\.333 over 3 tools both runs scored; top-(\d) overlap \d of \1\./);
    expect(await page.textContent('[data-testid="compare-runs"]')).toContain('Calculator');
    expect(pageErrors).toEqual([]);
  });
});
