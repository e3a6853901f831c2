// kill -9 at randomised points of a child process, for the fault suite's kill loops. The points are drawn
// from a seeded PRNG; the seed is printed, and LOTS_FAULT_SEED=<seed> replays a failing run.
import { spawn } from 'node:child_process';
import { mulberry32 } from '../../shared/lots/prng';

export const ROOT = new URL('../../', import.meta.url).pathname;

export function faultRandom(loop: string): () => number {
  const given = Number(process.env.LOTS_FAULT_SEED);
  const seed = Number.isInteger(given) ? given : Math.floor(Math.random() * 2 ** 31);
  process.stdout.write(`fault suite: ${loop} kill points from seed ${seed} (LOTS_FAULT_SEED=${seed} replays them)\n`);
  return mulberry32(seed);
}

export interface ChildRun {
  /** Whether the kill landed (the child was still running). */
  killed: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node args…` in the checkout and sends it SIGKILL `delayMs` after it started, or `graceMs` after
 * `onLine` returned true for a line of its output (`onLine` returning false only watches). Without
 * `killWhen` the child runs to its end; `env` adds to its environment.
 */
export function runChild(
  args: readonly string[],
  killWhen?: { delayMs?: number; onLine?: (line: string) => boolean; graceMs?: number; env?: Record<string, string> },
): Promise<ChildRun> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOTS_LOCK_WAIT_S: '30', ...killWhen?.env },
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  let scheduled = false;
  let exited = false;
  const kill = (): void => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      if (!exited) child.kill('SIGKILL');
    }, killWhen?.graceMs ?? 0);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!killWhen?.onLine) return;
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (killWhen.onLine(line)) kill();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (killWhen?.delayMs !== undefined) {
    const timer = setTimeout(() => {
      if (!killWhen.onLine) kill();
    }, killWhen.delayMs);
    child.once('exit', () => clearTimeout(timer));
  }
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ killed: signal === 'SIGKILL', code, stdout, stderr });
    });
  });
}
