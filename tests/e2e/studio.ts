// Starts the Studio in-process for tests: the engine service behind the local web host, serving the
// built renderer; and a headless Chromium driven by playwright-core.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { ensureRendererBuilt as buildRenderer, rendererBuildPaths } from '../../electron/cli/renderer-build';
import { StudioService } from '../../electron/engine/service';
import { startWebHost, type WebHost } from '../../electron/host/host';
import { chromiumPath, requirements } from '../requirements';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RENDERER_DIR = rendererBuildPaths(ROOT).outDir;
export const CHROMIUM = chromiumPath();

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
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** For opt-in suites; a suite that needs Chromium is declared with describeRequiring('chromium', …)
 * (tests/describe-requiring.ts), so a missing Chromium fails the run instead of skipping it silently. */
export function chromiumAvailable(): boolean {
  return requirements.chromium.missing() === undefined;
}
