// Test helpers: run the CLI in-process with captured output, on files in a fresh temp folder.
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

export async function runCli(argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (t) => out.push(t.endsWith('\n') ? t : t + '\n'), err: (t) => err.push(t.endsWith('\n') ? t : t + '\n'), isTTY: false };
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
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
