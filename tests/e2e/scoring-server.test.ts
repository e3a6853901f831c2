// The Models view's Scoring server card in Chromium, against a REAL llama-server started here and a URL
// nothing listens on, operated with the keyboard only: the URLs typed into the list, Tab to Check, Enter;
// the served model, its run-key identity and slots shown for the server, the exact error for the other.
// LOTS_README_SHOTS=1 copies the screenshot to assets/screenshots/scoring-server.png (tracked).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { freePort, startLlamaServer, type LlamaServerProcess } from '../engine/scoring/remote/llama-server-process';
import { ensureRendererBuilt, launchChromium, openStudioPage, ROOT, SHOTS, startStudio, type Studio, type StudioPage } from './studio';

let studio: Studio;
let browser: Browser;
let server: LlamaServerProcess;
let ui: StudioPage | undefined;

describeRequiring('chromium', 'the Scoring server card in Chromium', () => {
  describeRequiring('real-model', 'on the default real model', () => {
    describeRequiring('scoring-server', 'against a real llama-server', () => {
      beforeAll(async () => {
        ensureRendererBuilt();
        [server, studio, browser] = await Promise.all([
          startLlamaServer({ model: pulledDefaultModel()!, slots: 2, threads: 1, alias: 'qwen2.5-coder-0.5b', readyTimeoutMs: 600_000 }),
          startStudio(),
          launchChromium(),
        ]);
      }, 600_000);

      afterAll(async () => {
        await ui?.close();
        await browser?.close();
        studio?.service.dispose();
        await studio?.close();
        await server?.stop();
      });

      it('checks a real server and an unreachable URL, by keyboard, and shows what each answered', async () => {
        const dead = `http://127.0.0.1:${await freePort()}`;
        ui = await openStudioPage(browser, studio.host.openUrl);
        await ui.page.setViewportSize({ width: 1280, height: 1000 });
        await ui.go('models');
        const card = ui.page.locator('[data-testid="scoring-server"]');
        await card.scrollIntoViewIfNeeded();
        await ui.page.focus('[data-testid="server-endpoints"]');
        await ui.page.keyboard.type(server.url);
        await ui.page.keyboard.press('Enter');
        await ui.page.keyboard.type(dead);
        // The list, then the API key variable, the served-model name, then Check.
        await ui.page.keyboard.press('Tab');
        await ui.page.keyboard.press('Tab');
        await ui.page.keyboard.press('Tab');
        expect(await ui.page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('check-server');
        await ui.page.keyboard.press('Enter');
        await ui.page.waitForSelector('[data-testid="server-check"]', { timeout: 60_000 });

        const up = card.locator(`tr[data-endpoint="${server.url}"]`);
        expect(await up.getAttribute('data-reachable')).toBe('true');
        const upText = (await up.textContent())!;
        expect(upText).toContain('reachable');
        expect(upText).toContain('qwen2.5-coder-0.5b');
        expect(upText).toMatch(/llama-server:qwen2\.5-coder-0\.5b@[0-9a-f]{16}/);
        const down = card.locator(`tr[data-endpoint="${dead}"]`);
        expect(await down.getAttribute('data-reachable')).toBe('false');
        expect(await down.textContent()).toContain('unreachable');
        const errors = await card.locator('[data-testid="endpoint-error"]').allTextContents();
        expect(errors).toHaveLength(1);
        // A status line the check writes itself (never the server's text): the URL and why no answer came.
        expect(errors[0]).toBe(`${dead} could not be reached (ECONNREFUSED)`);
        expect(await card.locator('[data-testid="server-summary"]').textContent()).toContain('1 of 2 endpoints did not answer');
        // Kept for this user: a reload finds the two URLs.
        await ui.page.reload();
        await ui.page.click('nav [data-view="models"]');
        await ui.page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('[data-testid="server-endpoints"]')?.value.includes('\n'));
        expect(await ui.page.inputValue('[data-testid="server-endpoints"]')).toBe(`${server.url}\n${dead}`);
        // Checked again, for the screenshot of the card with its result.
        await ui.page.click('[data-testid="check-server"]');
        await ui.page.waitForSelector('[data-testid="server-check"]', { timeout: 60_000 });
        await card.scrollIntoViewIfNeeded();
        await ui.settle();
        await ui.shot('scoring-server');
        if (process.env.LOTS_README_SHOTS) {
          mkdirSync(join(ROOT, 'assets', 'screenshots'), { recursive: true });
          copyFileSync(join(SHOTS, '1280x1000', 'scoring-server.png'), join(ROOT, 'assets', 'screenshots', 'scoring-server.png'));
        }
        expect(ui.errors).toEqual([]);
      }, 300_000);
    });
  });
});
