// Starts the Studio in-process for tests: the engine service behind the local web host, serving the
// built renderer; and a headless Chromium driven by playwright-core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { StudioService } from '../../electron/engine/service';
import { startWebHost, type WebHost } from '../../electron/host/host';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RENDERER_DIR = join(ROOT, 'dist', 'renderer');
export const CHROMIUM = process.env.LOTS_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Builds the renderer (vite, a few seconds) when the build is older than its sources. Test files run in
 * parallel processes, so the build holds a lock folder; the others wait and then find it fresh.
 */
export function ensureRendererBuilt(): void {
  const index = join(RENDERER_DIR, 'index.html');
  const fresh = () => existsSync(index) && statSync(index).mtimeMs >= newestSource();
  if (fresh()) return;
  const lock = join(ROOT, 'dist', '.renderer-build.lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`waited 3 min for another renderer build (${lock}); delete it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    // vitest sets NODE_ENV=test, which would give a development React build.
    if (!fresh()) execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.mtimeMs > newest) newest = st.mtimeMs;
    }
  };
  walk(join(ROOT, 'renderer'));
  walk(join(ROOT, 'shared'));
  newest = Math.max(newest, statSync(join(ROOT, 'vite.config.ts')).mtimeMs);
  return newest;
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
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}
