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
}

export function lotsCli(args: string[]): LotsRun {
  const child = spawn(process.execPath, [join(ROOT, 'bin/lots.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return { done: new Promise((r) => child.on('exit', (code, signal) => r({ code, signal, out, err }))), kill: (s) => child.kill(s) };
}

export const scoreLines = (dir: string) => readScoreLines<{ key: string; trace: string; run: string; scores: Record<string, number> }>(dir);

export async function waitFor(check: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
