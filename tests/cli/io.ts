// The CLI test helpers (every CLI test uses these): run the CLI in-process with captured output, on files
// in a fresh temp folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../../electron/cli/command';
import { main } from '../../electron/cli/main';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** An IO that keeps what a command prints, one entry per call. */
export function captureIO(): CliIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => void stdout.push(t), err: (t) => void stderr.push(t), isTTY: false };
}

/** Runs `lots <argv>` in-process; `out` and `err` hold one line per printed message. */
export async function runCli(argv: string[]): Promise<CliRun> {
  const io = captureIO();
  const code = await main(argv, io);
  const lines = (texts: string[]) => texts.map((t) => (t.endsWith('\n') ? t : t + '\n')).join('');
  return { code, out: lines(io.stdout), err: lines(io.stderr) };
}

export function tempDir(prefix = 'lots-cli-'): { dir: string; file: (name: string, text: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, text) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r) + '\n').join('');
