// Issue 37 items 2 and 5, against a real `lots ui` process and a real HTTP server on 127.0.0.1 that
// records what it receives. A token holder chooses the endpoint of a scoring-server check, so: only a
// variable named LOTS_SCORING_KEY_* or allowed with --allow-key-env is ever sent as a key (any other is
// refused before a byte leaves), a check answers a status line and the model id (never the server's body),
// and a check changes no settings. And a server that quotes the key back (`invalid key: Bearer …`) never
// gets it printed by `lots score` or stored in the job's state file.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../electron/engine/store';
import { makeLineTraces } from '../e2e/fixtures';
import { randomModel } from '../engine/fixtures';
import { ensureRendererBuilt } from '../e2e/studio';
import { tempDir } from '../cli/io';
import { call, startUiProcess, type UiProcess } from './ui-process';

const KEY = 'sk-lots-test-0123456789abcdef';
const CLOUD = 'cloud-secret-do-not-send-987654';
const ALLOWED = 'allowed-by-flag-secret-555555';
const PAGE = 'INTERNAL-ADMIN-PAGE: db=postgres://admin:hunter2@10.0.0.5';

interface Seen {
  path: string;
  authorization: string | undefined;
}
const seen: Seen[] = [];
let server: Server;
let base: string;
let ui: UiProcess;
const tmp = tempDir('lots-scoring-check-');

beforeAll(async () => {
  // /notfound/…: 404 with an internal page; /quote/…: 401 quoting the Authorization header; /html/…: 200, not JSON.
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    if (req.url?.startsWith('/quote/')) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`invalid key: ${req.headers.authorization ?? '(none)'}; expected a key for tenant ${PAGE}`);
    } else if (req.url?.startsWith('/html/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${PAGE}</html>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(PAGE);
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  ensureRendererBuilt();
  ui = await startUiProcess(['--allow-key-env', 'ALLOWED_BY_FLAG'], { LOTS_SCORING_KEY_TEST: KEY, CLOUD_SECRET: CLOUD, ALLOWED_BY_FLAG: ALLOWED });
}, 120_000);
afterAll(async () => {
  await ui?.stop();
  await new Promise<void>((done) => server.close(() => done()));
  tmp.cleanup();
});

describe('checkScoringServer through a real lots ui', () => {
  it('refuses a key variable the operator did not allow, sending nothing, to check or to save', async () => {
    seen.length = 0;
    for (const method of ['checkScoringServer', 'saveScoringServer']) {
      const reply = await call(ui, ui.token, method, { endpoints: [`${base}/notfound`], apiKeyEnv: 'CLOUD_SECRET' });
      expect(reply.body).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringMatching(/LOTS_SCORING_KEY_.*--allow-key-env CLOUD_SECRET/) },
      });
    }
    expect(seen).toEqual([]);
    expect(JSON.stringify(await call(ui, ui.token, 'getScoringServer'))).not.toContain(CLOUD);
  });

  it('answers a status line, never the body, and changes no settings', async () => {
    seen.length = 0;
    const messages: string[] = [];
    let state: { settings: unknown; lastCheck: { endpoints: { error: { message: string } }[] } } | undefined;
    for (const endpoint of [`${base}/notfound`, `${base}/html`]) {
      const reply = await call(ui, ui.token, 'checkScoringServer', { endpoints: [endpoint], apiKeyEnv: 'LOTS_SCORING_KEY_TEST' });
      const text = JSON.stringify(reply.body);
      expect(text).not.toContain('INTERNAL-ADMIN-PAGE');
      expect(text).not.toContain('hunter2');
      state = (reply.body as { value: NonNullable<typeof state> }).value;
      messages.push(...state.lastCheck.endpoints.map((e) => e.error.message));
    }
    expect(messages).toEqual([
      `${base}/notfound answered HTTP 404: no llama-server answers at this URL (check the URL and the backend)`,
      `${base}/html answered HTTP 200, but not as llama-server does (check the URL and the backend)`,
    ]);
    // The allowed key was sent, to the endpoints given and nowhere else.
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.authorization).toBe(`Bearer ${KEY}`);
      expect(s.path).toMatch(/^\/(notfound|html)\//);
    }
    // Nothing was saved by the check.
    expect(state!.settings).toBeNull();
    expect((await call(ui, ui.token, 'getScoringServer')).body).toMatchObject({ ok: true, value: { settings: null } });
  });

  it('contacts one endpoint per check: a list of endpoints (a port scan in one call) is refused before anything is sent', async () => {
    seen.length = 0;
    const ports = Array.from({ length: 16 }, (_, i) => `http://127.0.0.1:${20000 + i}`);
    const reply = await call(ui, ui.token, 'checkScoringServer', { endpoints: [`${base}/notfound`, ...ports] });
    expect(reply.body).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('a check contacts one endpoint, and 17 were given') },
    });
    expect(seen).toEqual([]);
  });

  it('a server that quotes the key back: the answer holds no key', async () => {
    seen.length = 0;
    const reply = await call(ui, ui.token, 'checkScoringServer', { endpoints: [`${base}/quote`], apiKeyEnv: 'LOTS_SCORING_KEY_TEST' });
    expect(seen[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(reply.body)).not.toContain(KEY);
    expect(JSON.stringify(reply.body)).toContain('answered HTTP 401: the key in LOTS_SCORING_KEY_TEST was refused');
  });

  it('a variable allowed with --allow-key-env is sent; save then keeps the settings', async () => {
    seen.length = 0;
    await call(ui, ui.token, 'checkScoringServer', { endpoints: [`${base}/notfound`], apiKeyEnv: 'ALLOWED_BY_FLAG' });
    expect(seen[0]!.authorization).toBe(`Bearer ${ALLOWED}`);
    seen.length = 0;
    const saved = await call(ui, ui.token, 'saveScoringServer', { endpoints: [`${base}/notfound`], apiKeyEnv: 'ALLOWED_BY_FLAG' });
    expect(saved.body).toMatchObject({ ok: true, value: { settings: { endpoints: [`${base}/notfound`], apiKeyEnv: 'ALLOWED_BY_FLAG' } } });
    expect(seen).toEqual([]); // saving contacts nothing
    await call(ui, ui.token, 'forgetScoringServer');
  });
});

describe('lots score against a server that quotes the key (issue 37 item 5)', () => {
  it('prints and stores [redacted], never the key', async () => {
    const project = join(tmp.dir, 'proj');
    ProjectStore.create(project).addTraces(makeLineTraces({ task: 'fx', requests: 1, tools: 2, seed: 1 }), 'gen.jsonl');
    const child = spawn(
      process.execPath,
      [
        'bin/lots.mjs',
        'score',
        '--project',
        project,
        '--model',
        randomModel(),
        '--backend',
        'llama-server',
        '--endpoint',
        `${base}/quote`,
        '--api-key-env',
        'LOTS_SCORING_KEY_TEST',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOTS_SCORING_KEY_TEST: KEY } },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).not.toBe(0);
    expect(output).toContain('401');
    expect(output).not.toContain(KEY);
    expect(output).toContain('[redacted]');
    const jobs = join(project, 'jobs');
    const files = existsSync(jobs) ? readdirSync(jobs).filter((f) => f.startsWith('score-')) : [];
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(jobs, f), 'utf8')).not.toContain(KEY);
  }, 600_000); // loading the GGUF for its vocabulary is slow on a busy machine
});
