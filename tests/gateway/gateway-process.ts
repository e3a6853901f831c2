// `lots gateway openai` as a real process for the tests: started on a free port of 127.0.0.1, its
// stdout and stderr kept, stopped with SIGTERM (a clean stop: the batch committed) or SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  out(): string;
  err(): string;
  /** SIGTERM, and the exit code (or the signal that ended it). */
  stop(): Promise<number | string | null>;
  /** SIGKILL, and wait for the process to be gone. */
  kill(): Promise<void>;
}

export async function startGatewayProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['bin/lots.mjs', 'gateway', 'openai', '--port', '0', '--summary-s', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string | null>((done) => child.once('exit', (code, signal) => done(code ?? signal)));
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out);
      // The last startup line: printed in the same tick as the signal handlers are installed.
      if (m && out.includes('Gateway view shows it')) done(m[1]!);
    });
    void exited.then(() => fail(new Error(`the gateway exited:\n${out}\n${err}`)));
  });
  return {
    url,
    child,
    out: () => out,
    err: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface RawAnswer {
  status: number;
  body: string;
  /** The connection ended without the answer's proper end (cut mid-body). */
  cut: boolean;
}

/** A request with its target sent exactly as given (fetch would normalise `..`, `%2e`, `\`). */
export function rawRequest(base: string, method: string, target: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, method, path: target, headers: { 'content-type': 'application/json', ...headers }, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        let cut = false;
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('aborted', () => (cut = true));
        res.on('error', () => (cut = true));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8'), cut: cut || !res.complete }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
