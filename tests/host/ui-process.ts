// `lots ui` as its own process (bin/lots.mjs), for the tests that need the real thing: hostile requests,
// the read-only token, signals. Resolves once it printed the URL to open.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface UiProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT/ */
  url: string;
  token: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

export async function startUiProcess(args: string[] = [], env: Record<string, string> = {}): Promise<UiProcess> {
  const child = spawn(process.execPath, ['bin/lots.mjs', 'ui', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOTS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'lots-ui-cfg-')), ...env },
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const open = await new Promise<string>((done, fail) => {
    const look = (): void => {
      // The last line it prints on start is the view-only link.
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(text);
      if (m && /View only .*\n/.test(text)) done(m[1]!);
    };
    child.stdout.on('data', look);
    void exited.then(() => fail(new Error(`lots ui exited before serving:\n${text}`)));
  });
  const u = new URL(open);
  return {
    child,
    url: `${u.origin}/`,
    token: u.searchParams.get('token')!,
    output: () => text,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** One API call with the bearer token; the envelope (or the HTTP status when the answer is not one). */
export async function call(ui: Pick<UiProcess, 'url'>, token: string, method: string, input: unknown = null): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${ui.url}api/call/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* a plain-text refusal */
  }
  return { status: res.status, body };
}
