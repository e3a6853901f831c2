// A Ctrl+C repeated after a serving command has finished its cleanup must not change how it ends.
// npm relays its own copy of Ctrl+C a moment after the terminal's, and a sender on a busy machine can be
// descheduled between two signals (CI saw `lots ui` print "stopped." and then die of SIGINT). Here the
// first SIGINT starts the shutdown; from the moment the command prints that it stopped, SIGINT is sent
// again and again until the process is gone: it must still end with its own exit code, not by the signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject, post } from '../gateway/fixture';
import { startTinyUpstream } from '../gateway/tiny-upstream';
import { ensureRendererBuilt } from '../e2e/studio';

const tmp = tempDir('lots-late-signals-');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  tmp.cleanup();
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  repeats: number;
  output: string;
}

/** Starts `lots <argv>`, waits for `ready`, lets `use` exercise it, then Ctrl+C and repeats after `stoppedLine`. */
async function stopWithLateRepeats(argv: string[], ready: RegExp, stoppedLine: RegExp, use: (m: RegExpExecArray) => Promise<void>): Promise<Ended> {
  const child = spawn(process.execPath, ['bin/lots.mjs', ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOTS_CONFIG_DIR: tmp.dir } });
  started.push(child);
  let output = '';
  let gone = false;
  let repeats = 0;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      gone = true;
      done({ code, signal });
    }),
  );
  const repeat = (): void => {
    if (gone) return;
    child.kill('SIGINT');
    repeats++;
    setImmediate(repeat);
  };
  let repeating = false;
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    const look = (d: Buffer): void => {
      output += d.toString();
      const m = ready.exec(output);
      if (m) done(m);
      if (!repeating && stoppedLine.test(output)) {
        repeating = true;
        repeat();
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    void exited.then(() => fail(new Error(`lots ${argv[0]} exited first:\n${output}`)));
  });
  await use(match);
  child.kill('SIGINT');
  const end = await exited;
  return { ...end, repeats, output };
}

describe('a repeated Ctrl+C after the shutdown', () => {
  it('`lots ui` still exits 0', async () => {
    ensureRendererBuilt();
    const end = await stopWithLateRepeats(['ui', '--port', '0'], /Open: (http:\S+)/, /lots ui: stopped\./, async () => undefined);
    expect(end.output).toContain('lots ui: stopped.');
    expect(end.repeats).toBeGreaterThan(0);
    expect({ code: end.code, signal: end.signal }, end.output).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('`lots gateway openai` still exits 0, its batch committed', async () => {
    const upstream = await startTinyUpstream();
    const project = makeProject(tmp.dir);
    try {
      const end = await stopWithLateRepeats(
        ['gateway', 'openai', '--project', project, '--upstream', upstream.url, '--port', '0', '--summary-s', '0'],
        /serving (http:\/\/127\.0\.0\.1:\d+)\/v1/,
        /stopped; \d+ trace\(s\) recorded/,
        async (m) => {
          expect((await post(m[1]!, chatRequest('convert 5 EUR'), { 'x-lots-task': 'fx' })).status).toBe(200);
        },
      );
      expect(end.output).toMatch(/stopped; 1 trace\(s\) recorded into the project/);
      expect(end.repeats).toBeGreaterThan(0);
      expect({ code: end.code, signal: end.signal }, end.output).toEqual({ code: 0, signal: null });
      expect(gatewayTraces(project)).toHaveLength(1);
    } finally {
      await upstream.close();
    }
  }, 120_000);
});
