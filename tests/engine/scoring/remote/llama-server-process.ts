// Start a real llama.cpp server (`llama-server`, built by build/scoring-server.mjs) on a free
// loopback port, wait until it answers /health, and stop it afterwards. Settings that change numerics
// are the local scorer's: flash attention off, an F16 KV cache, no context shift.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { llamaServerPath } from '../../../requirements';

export interface LlamaServerProcess {
  url: string;
  pid: number;
  /** SIGKILL now (a server that dies mid-job); resolves when it has exited. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
  log(): string;
}

export interface StartOptions {
  model: string;
  /** Parallel slots (requests decoded together), default 1. */
  slots?: number;
  /** Tokens per slot, default 2048. */
  slotContext?: number;
  threads?: number;
  alias?: string;
  /** How long to wait for /health (default 180 s; a machine busy with other work needs longer). */
  readyTimeoutMs?: number;
  /** More llama-server flags, after the ones above (e.g. `--jinja` for tool calls through Chat Completions). */
  extraArgs?: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

export async function startLlamaServer(options: StartOptions): Promise<LlamaServerProcess> {
  const port = await freePort();
  const slots = options.slots ?? 1;
  const args = [
    '-m',
    options.model,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '-np',
    String(slots),
    '-c',
    String(slots * (options.slotContext ?? 2048)),
    '-t',
    String(options.threads ?? 2),
    '-fa',
    'off',
    '--no-context-shift',
    '--no-webui',
    ...(options.alias ? ['--alias', options.alias] : []),
    ...(options.extraArgs ?? []),
  ];
  const child: ChildProcess = spawn(llamaServerPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer): void => {
    log = (log + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const readyMs = options.readyTimeoutMs ?? 180_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (gone) throw new Error(`llama-server exited before it was ready:\n${log.slice(-3000)}`);
    try {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`llama-server did not become ready in ${Math.round(readyMs / 1000)} s:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    log: () => log,
    kill: async () => {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
