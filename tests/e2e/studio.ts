// Starts the Studio in-process for tests: the engine service behind the local web host, serving the
// built renderer; a headless Chromium driven by playwright-core; and a page on it that records its
// errors, with the few steps every e2e file takes (settle, go to a view, screenshot).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureRendererBuilt as buildRenderer, rendererBuildPaths } from '../../electron/cli/renderer-build';
import { StudioService } from '../../electron/engine/api';
import { startWebHost, type WebHost } from '../../electron/host/host';
import { chromiumPath, requirements } from '../requirements';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RENDERER_DIR = rendererBuildPaths(ROOT).outDir;
export const CHROMIUM = chromiumPath();
/** Screenshots land here (git-ignored), one folder per viewport size. */
export const SHOTS = join(ROOT, 'artifacts', 'screenshots');
export const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

/**
 * Builds the renderer when the build does not match its sources (a content hash), with the same code
 * as `lots ui` (electron/cli/renderer-build.ts). Test files run in parallel processes: the build holds a
 * lock folder; the others wait and then find it fresh.
 */
export function ensureRendererBuilt(): void {
  buildRenderer(ROOT, { log: (line) => process.stderr.write(`tests: ${line}\n`) });
}

export interface Studio {
  service: StudioService;
  host: WebHost;
  configDir: string;
  close(): Promise<void>;
}

export async function startStudio(configDir = mkdtempSync(join(tmpdir(), 'lots-config-'))): Promise<Studio> {
  const service = new StudioService({ transport: 'web', configDir });
  const host = await startWebHost({ service, events: service.events, staticDir: RENDERER_DIR });
  return { service, host, configDir, close: () => host.close() };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** For opt-in suites; a suite that needs Chromium is declared with describeRequiring('chromium', …)
 * (tests/describe-requiring.ts), so a missing Chromium fails the run instead of skipping it silently. */
export function chromiumAvailable(): boolean {
  return requirements.chromium.missing() === undefined;
}

export interface StudioPage {
  page: Page;
  /** Its own browser context: storage and cookies of no other page. */
  context: BrowserContext;
  /** Uncaught page errors and console errors (CSP violations included), in the order they came. */
  errors: string[];
  /** Two animation frames and a short pause: what the canvas and the charts need to draw. */
  settle(): Promise<void>;
  /** Through the sidebar, as a user does; waits for the view to be drawn. */
  go(view: string): Promise<void>;
  /** A screenshot of the viewport (or the whole page) into SHOTS/<width>x<height>/<name>.png. */
  shot(name: string, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** A 1280×800 page in a fresh context, listening for errors; at `url` when given. */
export async function openStudioPage(browser: Browser, url?: string, options: { acceptDownloads?: boolean } = {}): Promise<StudioPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: options.acceptDownloads ?? false });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const settle = async (): Promise<void> => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120)))));
  };
  const ui: StudioPage = {
    page,
    context,
    errors,
    settle,
    async go(view) {
      await page.click(`nav [data-view="${view}"]`);
      await page.waitForSelector(`[data-testid="view-${view}"]`);
      await settle();
    },
    async shot(name, shotOptions = {}) {
      const vp = page.viewportSize()!;
      const dir = join(SHOTS, `${vp.width}x${vp.height}`);
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: shotOptions.fullPage ?? false });
    },
    close: () => context.close(),
  };
  if (url !== undefined) await page.goto(url);
  return ui;
}

/** What `useStudioPage` sets up: filled in by its beforeAll, so read the fields inside the cases. */
export interface StudioSession {
  /** A temporary folder for the file's projects; the Studio's data folder is `work/config`. */
  work: string;
  studio: Studio;
  browser: Browser;
  /** The page on the Studio (when `page` was not false). */
  ui: StudioPage;
  page: Page;
}

/**
 * The setup most e2e files share, as beforeAll/afterAll of the calling suite: the renderer built, a
 * temporary folder, the Studio on it, Chromium, and a page on the Studio; then everything closed and
 * the folder removed. `before` runs after the folder is made and before the Studio starts (build a
 * project there); `ready` runs once the Studio is up, before the page opens (open a project on it).
 */
export function useStudioPage(
  name: string,
  options: {
    before?: (work: string) => unknown;
    ready?: (session: Pick<StudioSession, 'work' | 'studio'>) => unknown;
    page?: boolean;
    timeoutMs?: number;
  } = {},
): StudioSession {
  const session = {} as StudioSession;
  beforeAll(async () => {
    ensureRendererBuilt();
    session.work = mkdtempSync(join(tmpdir(), `lots-e2e-${name}-`));
    await options.before?.(session.work);
    session.studio = await startStudio(join(session.work, 'config'));
    await options.ready?.(session);
    session.browser = await launchChromium();
    if (options.page !== false) {
      session.ui = await openStudioPage(session.browser, session.studio.host.openUrl);
      session.page = session.ui.page;
    }
  }, options.timeoutMs ?? 300_000);
  afterAll(async () => {
    await session.browser?.close();
    session.studio?.service.dispose();
    await session.studio?.close();
    if (session.work) rmSync(session.work, { recursive: true, force: true });
  });
  return session;
}
