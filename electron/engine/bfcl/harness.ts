// The TypeScript side of the official BFCL harness: a long-lived Python process (driver.py, next to
// this file) in the provisioned venv, speaking JSON lines. Requests carry an id; answers are matched
// by it. A Python exception in one request answers that request with a HarnessError (the traceback's
// last line as its message, the whole traceback kept) and the process goes on. The process is ended by
// close(), and with this process (exit, SIGINT, SIGTERM).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bfclInstall, bfclInstalled } from './provision';
import type { BfclCheckVerdict, BfclDoc, BfclEntry, BfclAnswer } from './types';

/** driver.py: beside this module's source; in a packaged app, in its resources (build/electron-builder.yml's extraResources). */
export function driverPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const local = join(here, 'driver.py');
  if (existsSync(local)) return local;
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources && existsSync(join(resources, 'bfcl', 'driver.py'))) return join(resources, 'bfcl', 'driver.py');
  // A bundle (dist-electron/main.js) keeps the source tree's layout out of reach: look in the source tree.
  return join(here, '..', 'electron', 'engine', 'bfcl', 'driver.py');
}

export class HarnessError extends Error {
  constructor(
    message: string,
    readonly op: string,
    readonly traceback: string | undefined,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}

interface Answer {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
  traceback?: string;
}

interface Pending {
  op: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

const live = new Set<BfclHarness>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const h of live) h.kill();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const h of live) h.kill();
      // Another handler (the CLI's Ctrl-C) decides what happens next; alone, end as the signal would.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

export class BfclHarness {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrTail = '';
  private exited: string | undefined;
  private readonly exitPromise: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    live.add(this);
    this.exitPromise = new Promise((resolve) => child.once('exit', () => resolve()));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => this.onLine(line));
    // A write to a driver that has just died fails with EPIPE: the exit handler answers the requests.
    child.stdin!.on('error', () => {});
    child.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
    });
    child.on('exit', (code, signal) => {
      live.delete(this);
      this.exited = `the BFCL harness (python driver.py) exited (${signal ?? `code ${code}`})${this.stderrTail.trim() ? `: ${lastLine(this.stderrTail)}` : ''}`;
      for (const [, p] of this.pending) p.reject(new HarnessError(this.exited, p.op, this.stderrTail || undefined));
      this.pending.clear();
    });
    child.on('error', (e) => {
      this.exited = `the BFCL harness could not be started: ${e.message}`;
      for (const [, p] of this.pending) p.reject(new HarnessError(this.exited, p.op, undefined));
      this.pending.clear();
    });
  }

  /** Starts the driver in the provisioned venv (provisionBfcl() first; this fails if it is missing). */
  static start(options: { python?: string } = {}): BfclHarness {
    const python = options.python ?? bfclInstall().python;
    if (options.python === undefined && !bfclInstalled())
      throw new Error(`the official BFCL package is not provisioned (${bfclInstall().dir}): run provisionBfcl() first (\`lots bench bfcl\` does it)`);
    hookExit();
    const child = spawn(python, ['-u', driverPath()], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
    return new BfclHarness(child);
  }

  private onLine(line: string): void {
    let answer: Answer;
    try {
      answer = JSON.parse(line) as Answer;
    } catch {
      this.stderrTail = (this.stderrTail + `\n(stdout) ${line}`).slice(-4000);
      return;
    }
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    if (answer.ok) p.resolve(answer.result);
    else {
      const tb = answer.traceback;
      p.reject(new HarnessError(`BFCL harness, ${p.op}: ${tb ? lastLine(tb) : (answer.error ?? 'failed')}`, p.op, tb));
    }
  }

  request<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    if (this.exited !== undefined) return Promise.reject(new HarnessError(this.exited, op, this.stderrTail || undefined));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { op, resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin!.write(`${JSON.stringify({ ...args, id, op })}\n`);
    });
  }

  info(): Promise<{ version: string; path: string; python: string }> {
    return this.request('info');
  }

  /** The category's records, possible answers (same order) and every API class's function docs. */
  load(category = 'multi_turn_base'): Promise<{ records: BfclEntry[]; answers: BfclAnswer[]; docs: Record<string, BfclDoc[]> }> {
    return this.request('load', { category });
  }

  /** Executes call strings (`cd(folder='x')`) in the session's instances of the record's classes. */
  async execute(session: string, entry: BfclEntry, calls: readonly string[]): Promise<string[]> {
    return (await this.request<{ results: string[] }>('execute', { session, entry, calls })).results;
  }

  /** Decoded calls as BFCL call strings (`name(arg=repr(value),…)`), as the official handlers write them. */
  async toCalls(calls: readonly { name: string; arguments: Record<string, unknown> }[]): Promise<string[]> {
    if (calls.length === 0) return [];
    return (await this.request<{ calls: string[] }>('to_calls', { calls: calls.map((c) => ({ [c.name]: c.arguments })) })).calls;
  }

  endSession(session: string): Promise<void> {
    return this.request('end', { session });
  }

  /** The official multi_turn_checker: `result` holds, per turn, the steps, each a list of call strings. */
  check(entry: BfclEntry, groundTruth: readonly (readonly string[])[], result: readonly (readonly (readonly string[])[])[]): Promise<BfclCheckVerdict> {
    return this.request('check', { entry, ground_truth: groundTruth, result });
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }

  /** Resolves when the Python process has exited (for whatever reason). */
  whenExited(): Promise<void> {
    return this.exitPromise;
  }

  /** Ends the process (stdin closed: the driver's loop ends) and waits for it. */
  async close(): Promise<void> {
    if (this.exited !== undefined) return;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.kill(), 5000);
    await this.exitPromise;
    clearTimeout(timer);
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').trim();
}
