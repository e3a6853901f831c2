// `lots ui` as a newcomer runs it (`npm run web` is `node bin/lots.mjs ui`), from a copy of the
// repository without dist/: it builds the UI (production React), prints the URL with the token,
// serves the Studio, and exits 0 on Ctrl+C; unchanged sources (even with new mtimes) are not rebuilt;
// an edited renderer source is rebuilt and the new UI is served; so is a build made by something else.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rendererBuildPaths } from '../../electron/cli/renderer-build';
import { ROOT } from '../e2e/studio';

/** What `lots ui` needs from a checkout; node_modules is linked, not copied. */
const TREE = ['bin', 'electron', 'renderer', 'shared', 'package.json', 'package-lock.json', 'tsconfig.json', 'vite.config.ts'];

interface Lots {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  url: string;
  openUrl: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let tree: string;
let config: string;
const running = new Set<ChildProcess>();

beforeAll(() => {
  const work = mkdtempSync(join(tmpdir(), 'lots-ui-build-'));
  tree = join(work, 'checkout');
  config = join(work, 'config');
  for (const path of TREE) cpSync(join(ROOT, path), join(tree, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
});

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  if (tree) rmSync(join(tree, '..'), { recursive: true, force: true });
});

/** Starts `node bin/lots.mjs ui --port 0` in the copy and waits for the printed URL. */
async function startLots(): Promise<Lots> {
  const child = spawn(process.execPath, ['bin/lots.mjs', 'ui', '--port', '0'], {
    cwd: tree,
    env: { ...process.env, LOTS_CONFIG_DIR: config },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const open = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL after 150 s\nstdout: ${out}\nstderr: ${err}`)), 150_000);
    const look = () => {
      const m = out.match(/^Open: (http:\/\/127\.0\.0\.1:\d+\/)\?token=[\w-]{20,}$/m);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', look);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`lots ui exited (${code ?? signal}) before printing the URL\nstdout: ${out}\nstderr: ${err}`));
    });
  });
  return { child, out: () => out, err: () => err, url: open[1]!, openUrl: open[0].slice('Open: '.length), exited };
}

/** Ctrl+C (twice in a row, as under npm); the process must exit 0 within 10 s. */
async function stop(lots: Lots, signals = 1): Promise<void> {
  for (let i = 0; i < signals; i++) lots.child.kill('SIGINT');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
  const result = await Promise.race([lots.exited, timeout]);
  expect(result, lots.err()).toEqual({ code: 0, signal: null });
  expect(lots.err()).toContain('lots ui: stopped.');
}

/** Follows the printed URL like a browser: the page and the script it loads. */
async function fetchUi(lots: Lots): Promise<{ html: string; script: string }> {
  const first = await fetch(lots.openUrl, { redirect: 'manual' });
  expect(first.status).toBe(303);
  const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(lots.url, { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const src = html.match(/<script type="module"[^>]* src="\.\/(assets\/[^"]+\.js)"/)?.[1];
  expect(src, html).toBeDefined();
  const js = await fetch(lots.url + src, { headers: { Cookie: cookie } });
  expect(js.status).toBe(200);
  return { html, script: await js.text() };
}

describe('lots ui from a checkout without dist/', () => {
  it('builds the UI, prints the URL with the token, serves the Studio and exits 0 on Ctrl+C', async () => {
    expect(existsSync(join(tree, 'dist'))).toBe(false);
    const lots = await startLots();
    expect(lots.err()).toContain('lots ui: building the UI (vite build)…');
    const { html, script } = await fetchUi(lots);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<title>LOTS Studio</title>');
    expect(script.length).toBeGreaterThan(10_000);
    // A production build: vitest's NODE_ENV=test must not leak into it (a development React build).
    expect(script).not.toContain('jsxDEV');
    expect(JSON.parse(readFileSync(rendererBuildPaths(tree).stamp, 'utf8'))).toEqual({
      sources: expect.stringMatching(/^[0-9a-f]{64}$/),
      index: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    await stop(lots);
  }, 300_000);

  it('serves the build as it is when no source changed (new mtimes do not count), and survives a double Ctrl+C', async () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(tree, 'renderer', 'main.tsx'), later, later);
    utimesSync(join(tree, 'vite.config.ts'), later, later);
    const lots = await startLots();
    expect(lots.err()).not.toContain('building');
    expect((await fetchUi(lots)).html).toContain('<title>LOTS Studio</title>');
    await stop(lots, 2);
  }, 300_000);

  it('rebuilds when a renderer source changed and serves the new UI', async () => {
    const index = join(tree, 'renderer', 'index.html');
    const before = readFileSync(rendererBuildPaths(tree).stamp, 'utf8');
    writeFileSync(index, readFileSync(index, 'utf8').replace('<title>LOTS Studio</title>', '<title>LOTS Studio (edited)</title>'));
    const lots = await startLots();
    expect(lots.err()).toContain('lots ui: the UI sources changed since the last build; rebuilding (vite build)…');
    expect((await fetchUi(lots)).html).toContain('<title>LOTS Studio (edited)</title>');
    expect(readFileSync(rendererBuildPaths(tree).stamp, 'utf8')).not.toBe(before);
    await stop(lots);
  }, 300_000);

  it('rebuilds a build it holds no record of (another build replaced it since)', async () => {
    // As after `npm run build` from other sources, since reverted: dist/ no longer matches the record.
    const built = join(rendererBuildPaths(tree).outDir, 'index.html');
    writeFileSync(built, readFileSync(built, 'utf8').replace('<title>LOTS Studio (edited)</title>', '<title>LOTS Studio (another build)</title>'));
    const lots = await startLots();
    expect(lots.err()).toContain('lots ui: the UI build in dist/ has no record of its sources');
    expect((await fetchUi(lots)).html).toContain('<title>LOTS Studio (edited)</title>');
    await stop(lots);
  }, 300_000);
});
