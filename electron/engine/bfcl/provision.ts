// The official BFCL v4 package in a virtual environment of its own, cached outside the clone
// (LOTS_BFCL_DIR, default ~/.cache/lots-studio/bfcl-<version>), as vLLM's is (.ci/install-vllm.sh):
// created once with `python3 -m venv`, pip as a download client, a marker when complete, so a second
// call does nothing. bfcl-eval's own Requires-Dist pulls the whole leaderboard harness (vendor SDKs,
// sentence-transformers, faiss, …); the executable API classes of the multi-turn categories and the
// multi-turn checker import only the standard library and mpmath (MathAPI), so the package goes in with
// --no-deps and mpmath at the version the package pins. An import check of every class closes it.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ExpectedError } from '../../../shared/api/errors';

export const BFCL_VERSION = '2026.3.23';
/** What the executable classes and the checker import beyond the standard library (pinned as bfcl-eval pins it). */
export const BFCL_RUNTIME_DEPS = ['mpmath==1.3.0'] as const;
/** The classes of the multi-turn categories, imported once to prove the environment complete. */
const CHECK_IMPORT = [
  'from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker',
  'from bfcl_eval.constants.executable_backend_config import CLASS_FILE_PATH_MAPPING as M',
  'import importlib',
  "[getattr(importlib.import_module(M[c]), c) for c in ['GorillaFileSystem','MathAPI','MessageAPI','TwitterAPI','TicketAPI','TradingBot','TravelAPI','VehicleControlAPI']]",
].join('; ');

export interface BfclInstall {
  dir: string;
  python: string;
  /** Written last; its presence means the environment is complete. */
  complete: string;
}

export function bfclInstall(version = BFCL_VERSION): BfclInstall {
  const dir = process.env.LOTS_BFCL_DIR || join(homedir(), '.cache', 'lots-studio', `bfcl-${version}`);
  return { dir, python: join(dir, 'venv', 'bin', 'python'), complete: join(dir, '.complete') };
}

export function bfclInstalled(install = bfclInstall()): boolean {
  return existsSync(install.complete) && existsSync(install.python);
}

export interface ProvisionReport {
  install: BfclInstall;
  /** False when it was already there (nothing was done). */
  installed: boolean;
  seconds: number;
  /** Bytes of the virtual environment on disk. */
  bytes: number;
}

function run(cmd: string, args: string[], what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    let child;
    try {
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PIP_NO_COLOR: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new ExpectedError(
              'PIP_MISSING',
              `${what}: "${cmd}" could not be run; install Python 3 (≥ 3.10) with venv and pip (Debian: apt-get install -y python3-venv python3-pip)`,
            )
          : e,
      ),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const last = output.trim().split('\n').slice(-3).join(' | ');
      reject(
        new ExpectedError(
          /No matching distribution|Could not find a version/.test(output)
            ? 'PACKAGE_NOT_FOUND'
            : /Failed to establish|Temporary failure|ConnectionError/.test(output)
              ? 'REGISTRY_UNREACHABLE'
              : 'DOWNLOAD_FAILED',
          `${what} failed (exit ${code}): ${last}`,
        ),
      );
    });
  });
}

/** Bytes of the files under `dir`; links are not followed (a venv's lib64 links to lib). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) continue;
    total += st.isDirectory() ? folderBytes(p) : st.size;
  }
  return total;
}

/**
 * Makes the official harness available: the venv with bfcl-eval==version and its runtime imports.
 * Idempotent; progress lines go to `onProgress`. Fails with PIP_MISSING, PACKAGE_NOT_FOUND,
 * REGISTRY_UNREACHABLE or DOWNLOAD_FAILED and pip's last words.
 */
export async function provisionBfcl(options: { version?: string; onProgress?: (line: string) => void } = {}): Promise<ProvisionReport> {
  const version = options.version ?? BFCL_VERSION;
  const install = bfclInstall(version);
  const say = options.onProgress ?? (() => {});
  if (bfclInstalled(install)) return { install, installed: false, seconds: 0, bytes: folderBytes(join(install.dir, 'venv')) };
  const started = Date.now();
  mkdirSync(install.dir, { recursive: true });
  const venv = join(install.dir, 'venv');
  if (!existsSync(install.python)) {
    say(`bfcl: creating the virtual environment ${venv} (python3 -m venv)`);
    rmSync(venv, { recursive: true, force: true });
    await run('python3', ['-m', 'venv', venv], 'creating the virtual environment');
  }
  say(`bfcl: pip install --no-deps bfcl-eval==${version} ${BFCL_RUNTIME_DEPS.join(' ')} (about 2 MB, from the package index)`);
  await run(
    install.python,
    ['-m', 'pip', 'install', '--quiet', '--no-input', '--no-deps', `bfcl-eval==${version}`, ...BFCL_RUNTIME_DEPS],
    `pip install bfcl-eval==${version}`,
  );
  say('bfcl: checking that the API classes and the multi-turn checker import');
  await run(install.python, ['-c', CHECK_IMPORT], 'importing the official API classes and checker');
  const seconds = (Date.now() - started) / 1000;
  const bytes = folderBytes(venv);
  writeFileSync(install.complete, `${JSON.stringify({ version, deps: BFCL_RUNTIME_DEPS, seconds, bytes, at: new Date().toISOString() })}\n`);
  say(`bfcl: ready in ${seconds.toFixed(1)} s (${(bytes / 1e6).toFixed(1)} MB in ${venv})`);
  return { install, installed: true, seconds, bytes };
}
