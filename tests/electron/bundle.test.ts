// `npm run build:electron` into a temporary folder: every worker the engine launches is bundled next
// to main.js, where workerEntry() looks for it once the engine is bundled; each worker starts on its
// own and answers a job over IPC; and the bundled main process boots (with a stand-in `electron`)
// with its import.meta.url-relative paths right: preload, renderer, and the workers it launches as
// utility processes.
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkLauncher } from '../../electron/engine/jobs/launcher';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
// Inside the checkout (git-ignored .cache/) so the bundles resolve node-llama-cpp from node_modules.
mkdirSync(join(ROOT, '.cache'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.cache', 'bundle-test-'));
const DIST = join(OUT, 'dist-electron');

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

beforeAll(() => {
  const r = spawnSync(process.execPath, ['build/bundle-electron.mjs', DIST], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});

/** Names the engine passes to workerEntry(import.meta.url, name) in these sources. */
function launchedWorkers(files: string[], quote: string): string[] {
  const pattern = new RegExp(`workerEntry\\(import\\.meta\\.url, ${quote}([\\w-]+)${quote}\\)`, 'g');
  return [...new Set(files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(pattern)].map((m) => m[1]!)))].sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const WORKERS = launchedWorkers(sourceFiles(join(ROOT, 'electron')), "'");

describe('the Electron bundle', () => {
  it('holds main.js, preload.cjs and, next to main.js, every worker the engine launches', () => {
    expect(WORKERS).toEqual(['job-worker']);
    // The bundled main process asks for exactly these, relative to itself.
    expect(launchedWorkers([join(DIST, 'main.js')], '"')).toEqual(WORKERS);
    for (const file of ['main.js', 'preload.cjs', ...WORKERS.map((w) => `${w}.js`)]) expect(existsSync(join(DIST, file)), file).toBe(true);
    // node-llama-cpp stays external (ESM with native binaries, shipped in node_modules).
    const main = readFileSync(join(DIST, 'main.js'), 'utf8');
    expect(main).toMatch(/from "node-llama-cpp"/);
    expect(main).not.toMatch(/llama-addon\.node/);
  });

  it.each(WORKERS)('%s started by hand loads, says it is a worker, and exits with code 2', (worker) => {
    const r = spawnSync(process.execPath, [join(DIST, `${worker}.js`)], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toContain(`${worker} is a worker process`);
    expect(r.status).toBe(2);
  });

  it.each(['score', 'faithfulness', 'sweep'] as const)('the job worker forked answers a %s request over IPC and exits cleanly', async (kind) => {
    const child = forkLauncher.launch(join(DIST, 'job-worker.js'), [], { stdio: 'ignore' });
    const got: unknown[] = [];
    child.onMessage((m) => got.push(m));
    const exit = new Promise<number | null>((r) => child.onExit((code) => r(code)));
    const missing = join(OUT, 'no-project');
    const spec = { jobId: `${kind}-test`, project: missing, model: join(missing, 'm.gguf'), gpu: 'cpu' };
    const request =
      kind === 'score'
        ? { kind, spec: { ...spec, intervention: 'line', span: 'answer' } }
        : kind === 'faithfulness'
          ? { kind, spec: { ...spec, run: 'r', ks: [1], draws: 1 } }
          : { kind, spec: { ...spec, task: 't', baselines: false } };
    child.send({ type: 'start', request });
    expect(await exit).toBe(0);
    expect(got).toContainEqual(expect.objectContaining({ type: 'failed', error: expect.objectContaining({ code: 'PROJECT_NOT_FOUND' }) }));
  });
});

describe('the bundled main process (stand-in electron)', () => {
  it('finds its preload and renderer, serves the UI, answers IPC, and runs a sweep worker as a utility process', async () => {
    mkdirSync(join(OUT, 'dist', 'renderer'), { recursive: true });
    writeFileSync(join(OUT, 'dist', 'renderer', 'index.html'), '<!doctype html><title>bundle-test renderer</title>');
    const userData = join(OUT, 'user-data');
    const project = join(OUT, 'project');
    const register = new URL('fixtures/fake-electron/register.mjs', import.meta.url).href;
    const child = fork(join(DIST, 'main.js'), [], {
      cwd: OUT,
      execArgv: ['--import', register],
      env: { ...process.env, LOTS_FAKE_USER_DATA: userData, LOTS_FAKE_PROJECT: project },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const report = await new Promise<Record<string, unknown>>((resolvePromise, reject) => {
      child.once('message', (m) => resolvePromise(m as Record<string, unknown>));
      child.once('exit', (code) => reject(new Error(`main.js exited (${code}) without a report:\n${stderr}`)));
    });
    expect(report.error).toBeUndefined();
    expect(report.errors).toEqual([]);
    expect(report.preload).toBe(join(DIST, 'preload.cjs'));
    expect(report.preloadExists).toBe(true);
    expect(report.loadedUrl).toBe('app://lots/index.html');
    expect(report.served).toEqual({ status: 200, body: '<!doctype html><title>bundle-test renderer</title>' });
    expect(report.appInfo).toMatchObject({ ok: true, value: { transport: 'electron' } });
    expect(report.project).toEqual({ ok: true });
    expect(report.sweep).toMatchObject({ ok: true, value: { kind: 'sweep', status: 'running' } });
    const forks = report.forks as Array<{
      modulePath: string;
      args: string[];
      options: { serviceName: string; execArgv: string[]; stdio: string[] };
      exists: boolean;
    }>;
    expect(forks).toHaveLength(1);
    expect(forks[0]).toMatchObject({
      modulePath: join(DIST, 'job-worker.js'),
      args: [],
      exists: true,
      options: { serviceName: 'LOTS Studio budget sweep', execArgv: [], stdio: ['ignore', 'inherit', 'inherit'] },
    });
    // The worker ran (as an emulated utility process) and its failure came back as the job's error:
    // it was not mistaken for a crash.
    const ended = report.ended as { status: string; error: { code: string } } | undefined;
    expect(ended, 'the sweep job ended within the driver’s minute').toBeDefined();
    expect(ended!.status).toBe('failed');
    expect(ended!.error.code).not.toBe('WORKER_CRASHED');
    expect(ended!.error.code).toMatch(/^[A-Z_]+$/);
  });
});
