// `lots` as a child process for the scoring-server tests (llama-server.test.ts, vllm.test.ts): a score job
// to kill midway and run again, its stored score lines, and a wait for them.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readScoreLines } from '../../fixtures';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface LotsRun {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
  kill: (s: NodeJS.Signals) => void;
  /** Set once the process has ended (its exit code, or its signal). */
  ended: () => string | undefined;
}

export function lotsCli(args: string[]): LotsRun {
  const child = spawn(process.execPath, [join(ROOT, 'bin/lots.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let ended: string | undefined;
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const done = new Promise<Awaited<LotsRun['done']>>((r) =>
    child.on('exit', (code, signal) => {
      ended = `exit ${code ?? signal}; stderr: ${err.trim().slice(-2000)}`;
      r({ code, signal, out, err });
    }),
  );
  return { done, kill: (s) => child.kill(s), ended: () => ended };
}

export const scoreLines = (dir: string) => readScoreLines<{ key: string; trace: string; run: string; scores: Record<string, number> }>(dir);

/**
 * Waits until `check` holds. It fails at once when `run` ends first (with its exit and stderr), and
 * otherwise after `timeoutMs`: a guard against a hang, kept just inside the tests' own 900 s, since a
 * model on a busy CPU can take minutes for the first scores (one remote trace took over 300 s while
 * another model job had the cores).
 */
export async function waitFor(check: () => boolean, what: string, run?: LotsRun, timeoutMs = 840_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    const ended = run?.ended();
    if (ended !== undefined && !check()) throw new Error(`the lots process ended before ${what}: ${ended}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
