// The renderer build (vite → dist/renderer/) that `lots ui` serves, kept in step with its sources: the
// build is redone when it is missing or when a content hash of its sources differs from the one
// recorded beside it (a hash, not mtimes: `git checkout` sets mtimes to "now" whatever it checks out).
// One implementation for `lots ui` and the tests (tests/e2e/studio.ts). Concurrent callers (test
// files run in parallel processes) take turns through a lock folder; the later ones find it fresh.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode, ExpectedError, isFsError } from '../../shared/api/errors';

/** What the build is made from, relative to the repository root (index.html lives in renderer/). */
export const RENDERER_SOURCES = ['renderer', 'shared', 'vite.config.ts', 'package-lock.json'] as const;

export interface RendererBuildPaths {
  /** vite.config.ts's outDir. */
  outDir: string;
  /** Which sources the build was made from, and which index.html it made (beside outDir: vite empties outDir). */
  stamp: string;
  lock: string;
}

export function rendererBuildPaths(root: string): RendererBuildPaths {
  const dist = join(root, 'dist');
  return { outDir: join(dist, 'renderer'), stamp: join(dist, 'renderer.sources.json'), lock: join(dist, '.renderer-build.lock') };
}

/** sha256 over every source file's path and content, in a fixed order; undefined without sources (an install without them). */
export function rendererSourcesHash(root: string): string | undefined {
  const hash = createHash('sha256');
  if (!existsSync(join(root, 'renderer', 'index.html')) || !existsSync(join(root, 'vite.config.ts'))) return undefined;
  const add = (rel: string) => {
    const path = join(root, rel);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort()) add(`${rel}/${name}`);
    } else if (st.isFile()) {
      const body = readFileSync(path);
      hash.update(`${rel}\0${body.length}\0`).update(body);
    }
  };
  for (const rel of RENDERER_SOURCES) add(rel);
  return hash.digest('hex');
}

export type RendererBuildState = { state: 'fresh' } | { state: 'missing' | 'unrecorded' | 'stale'; hash: string };

export function rendererBuildState(root: string): RendererBuildState {
  const paths = rendererBuildPaths(root);
  const built = existsSync(join(paths.outDir, 'index.html'));
  const hash = rendererSourcesHash(root);
  if (hash === undefined) {
    if (built) return { state: 'fresh' }; // nothing to rebuild from: serve what is there
    throw new ExpectedError('UI_NOT_BUILT', `the UI is not built (${paths.outDir}) and its sources are not here to build it from`);
  }
  if (!built) return { state: 'missing', hash };
  const recorded = readStamp(paths.stamp);
  // The build's own index.html is recorded too: a build made by something else (`npm run build`) since
  // then names other assets, and the record no longer describes it.
  if (!recorded || recorded.index !== indexHash(paths.outDir)) return { state: 'unrecorded', hash };
  return recorded.sources === hash ? { state: 'fresh' } : { state: 'stale', hash };
}

interface Stamp {
  sources: string;
  index: string;
}

function readStamp(path: string): Stamp | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Stamp>;
    return typeof value.sources === 'string' && typeof value.index === 'string' ? { sources: value.sources, index: value.index } : undefined;
  } catch {
    return undefined;
  }
}

function indexHash(outDir: string): string {
  return createHash('sha256')
    .update(readFileSync(join(outDir, 'index.html')))
    .digest('hex');
}

const REASONS = {
  missing: 'building the UI (vite build)…',
  unrecorded: 'the UI build in dist/ has no record of its sources (made by `npm run build`?); rebuilding (vite build)…',
  stale: 'the UI sources changed since the last build; rebuilding (vite build)…',
} as const;

export interface EnsureRendererOptions {
  /** One line when it (re)builds. */
  log?: (line: string) => void;
  /** How long to wait for another process's build (default 3 min). */
  waitMs?: number;
}

/**
 * Builds the renderer unless the build matches its sources. Synchronous (a few seconds when it builds):
 * callers run it before serving. vite runs as a child process in production mode whatever NODE_ENV the
 * caller has (vitest sets NODE_ENV=test, which would give a development React build).
 */
export function ensureRendererBuilt(root: string, options: EnsureRendererOptions = {}): 'fresh' | 'built' {
  if (rendererBuildState(root).state === 'fresh') return 'fresh';
  const paths = rendererBuildPaths(root);
  const release = takeLock(paths.lock, options.waitMs ?? 180_000);
  try {
    const now = rendererBuildState(root); // another process may have built it meanwhile
    if (now.state === 'fresh') return 'fresh';
    options.log?.(REASONS[now.state]);
    const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    if (!existsSync(vite)) throw new ExpectedError('UI_BUILD_FAILED', `cannot build the UI: vite is not installed (${vite}); run \`npm ci\``);
    rmSync(paths.stamp, { force: true });
    // vite's own output goes to stderr, so stdout stays what the command prints (the URL).
    const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (run.error) throw run.error;
    if (run.status !== 0 || !existsSync(join(paths.outDir, 'index.html'))) {
      throw new ExpectedError('UI_BUILD_FAILED', `the UI build failed (vite build exited ${run.status ?? run.signal}); its messages are above`);
    }
    // The hash taken before the build: a source edited during it makes the next call rebuild.
    const stamp: Stamp = { sources: now.hash, index: indexHash(paths.outDir) };
    writeFileSync(paths.stamp, JSON.stringify(stamp) + '\n');
    return 'built';
  } finally {
    release();
  }
}

/** A lock folder holding the owner's pid; a lock whose owner is gone is taken over. */
function takeLock(lock: string, waitMs: number): () => void {
  mkdirSync(join(lock, '..'), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if (!isFsError(e, 'EEXIST')) throw e;
      if (ownerGone(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new ExpectedError(
          'UI_BUILD_LOCKED',
          `waited ${Math.round(waitMs / 1000)} s for another UI build (${lock}); delete that folder if no build is running`,
        );
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}

function ownerGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // No pid yet: the owner is between mkdir and writing it, unless the folder is old.
    const st = statSync(lock, { throwIfNoEntry: false });
    return st !== undefined && Date.now() - st.mtimeMs > 10_000;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return errorCode(e) === 'ESRCH';
  }
}
