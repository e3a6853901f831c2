// Issue 13 #6 and #7 in the UI: an import shows what it is waiting for (another process holding the
// project lock: who, since when, up to what limit) and can be cancelled from the keyboard; nothing of
// the cancelled file is imported and the holder's lock is left alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeRequiring } from '../describe-requiring';
import { ensureRendererBuilt, launchChromium, startStudio, type Studio } from './studio';
import { makeLineTraces, toJsonl } from './fixtures';
import { ProjectStore } from '../../electron/engine/store';

let studio: Studio;
let browser: Browser;
let page: Page;
let work: string;
let holder: ChildProcess;
const pageErrors: string[] = [];

describeRequiring('chromium', 'cancelling an import in the Studio', () => {
  beforeAll(async () => {
    ensureRendererBuilt();
    work = mkdtempSync(join(tmpdir(), 'lots-e2e-cancel-'));
    studio = await startStudio(join(work, 'config'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 300_000);

  afterAll(async () => {
    holder?.kill('SIGKILL');
    await browser?.close();
    studio?.service.dispose();
    await studio?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('says the import waits for the project lock, and Cancel (keyboard) stops it with nothing imported', async () => {
    const project = join(work, 'p');
    ProjectStore.create(project);
    const traces = join(work, 'fx.jsonl');
    writeFileSync(traces, toJsonl(makeLineTraces({ task: 'fx', requests: 20, tools: 5, seed: 2 })));
    // Another process (a CLI import, say) holds the project's write lock for as long as this test needs.
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
    await new Promise((r) => holder.once('spawn', r));
    const lock = join(project, '.lock');
    const record = JSON.stringify({ pid: holder.pid, host: hostname(), since: '2026-12-01T10:00:00.000Z', purpose: 'import big.jsonl' });
    writeFileSync(lock, record);
    await studio.service.openProject({ dir: project });

    await page.goto(studio.host.openUrl);
    await page.waitForSelector('text=No traces yet');
    await page.setInputFiles('[data-testid="trace-file-input"]', traces);
    const status = page.locator('[data-testid="import-status"]');
    await status.filter({ hasText: 'waiting for the project lock' }).waitFor();
    const text = (await status.textContent()) ?? '';
    expect(text).toContain(`process ${holder.pid}`);
    expect(text).toContain('import big.jsonl, since 2026-12-01T10:00:00.000Z');
    expect(text).toMatch(/will wait up to \d+(\.\d+)? (min|s)/);

    // Keyboard only: the Cancel button is focusable and Enter presses it.
    const cancel = page.locator('[data-testid="cancel-import"]');
    await cancel.focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cancel-import');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.notice:has-text("Import cancelled")');
    await page.waitForSelector('[data-testid="cancel-import"]', { state: 'detached' });

    expect((await studio.service.getProject())?.traces).toBe(0);
    expect(readFileSync(lock, 'utf8')).toBe(record); // the holder's lock is untouched
    const job = (await studio.service.listJobs()).find((j) => j.kind === 'import');
    expect(job).toMatchObject({ status: 'cancelled', canCancel: false });
    expect(pageErrors).toEqual([]);
  });
});
