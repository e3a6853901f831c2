// Ctrl-C on `lots demo`, as a user presses it in a terminal: the first says at once that the demo stops
// after the work in flight, and it does, with a message that the same command resumes; that command then
// finishes the demo from what was stored. The model is the fixture (a random-weights GGUF): the run's
// numbers are noise, its control flow is the real one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureFixtureModel } from '../../electron/engine/gguf/fixture-cache';
import { ROOT } from '../e2e/studio';

const work = mkdtempSync(join(tmpdir(), 'lots-demo-interrupt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** Runs `lots demo` with `args`; `onLine` sees each stdout line and may interrupt the process. */
function demo(args: readonly string[], onLine: (line: string, interrupt: () => void) => void = () => {}): Promise<Ran> {
  const child = spawn(process.execPath, ['bin/lots.mjs', 'demo', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line, () => child.kill('SIGINT'));
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
}

describe('lots demo and Ctrl-C', () => {
  it('the first Ctrl-C says it stops after the work in flight, stops with how to resume, and the same command resumes', async () => {
    const model = ensureFixtureModel(join(tmpdir(), 'lots-fixtures'), { kind: 'random' });
    const out = join(work, 'demo');
    const args = ['--out', out, '--model', model, '--families', 'compute_only', '--baselines', 'keep-all', '--threads', '1'];
    let interrupted = false;
    const first = await demo(args, (line, interrupt) => {
      // Once the project is made and serving begins: the demo is mid-way, nothing measured yet.
      if (!interrupted && line.startsWith('1/5 ')) {
        interrupted = true;
        interrupt();
      }
    });
    expect(interrupted, first.out + first.err).toBe(true);
    expect(first.err).toContain('stopping after the work in flight (Ctrl-C again to stop now)…');
    expect(first.err).toContain('lots demo: the demo was interrupted; run the same command again to resume it');
    expect(first.code).toBe(2);
    expect(first.out).not.toContain('done in');
    // What was made before the interruption is kept: the project and its requests.
    expect(existsSync(join(out, 'project.json'))).toBe(true);

    const again = await demo(args);
    expect(again.err).not.toContain('interrupted');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/done in .*; the project is in /);
    const record = JSON.parse(readFileSync(join(out, 'demo.json'), 'utf8')) as { command: string };
    expect(record.command).toContain('--families compute_only');
  }, 300_000);
});
