// `lots gateway openai` as a process: it prints where it serves, a line per request, and on SIGTERM
// finishes, commits the batch into the project and prints the summary; and it refuses to start
// exposed without a token, or with a key variable that is not set.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../cli/io';
import { chatRequest, gatewayTraces, makeProject, post } from './fixture';
import { startTinyUpstream } from './tiny-upstream';

const tmp = tempDir('lots-gateway-cli-');
afterAll(() => tmp.cleanup());

describe('lots gateway openai', () => {
  it('serves until SIGTERM, then commits the batch and prints the summary', async () => {
    const upstream = await startTinyUpstream();
    const project = makeProject(tmp.dir);
    const child = spawn(
      process.execPath,
      ['bin/lots.mjs', 'gateway', 'openai', '--project', project, '--upstream', upstream.url, '--port', '0', '--summary-s', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const url = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /serving (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out);
        if (m) done(m[1]!);
      });
      void exited.then(() => fail(new Error(`the gateway exited:\n${out}\n${err}`)));
    });
    try {
      const r = await post(url, chatRequest('convert 5 EUR'), { 'x-lots-task': 'fx' });
      expect(r.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await upstream.close();
    expect(err).toMatch(
      /POST \/v1\/chat\/completions task=fx \(header\) menu 4→2 pinned, 0 deferred \(demote\), 2 hidden \(space v0\), ~\d+ tokens saved → 200, 11 prompt tokens/,
    );
    expect(err).toMatch(/fx: 1 request\(s\), 2 tool\(s\) hidden/);
    expect(err).toMatch(/stopped; 1 trace\(s\) recorded into the project/);
    expect(gatewayTraces(project)).toHaveLength(1);
    // The deferred form each API gets from this upstream (llama-server-like: no native deferral) is printed.
    expect(out).toMatch(/deferred tools: chat demote, responses demote, messages demote \(--deferred\)/);
  }, 60_000);

  it('refuses to bind off loopback without a token, and a key variable that is not set', async () => {
    const project = makeProject(tmp.dir, 'p2');
    const exposed = await runCli(['gateway', 'openai', '--project', project, '--upstream', 'http://127.0.0.1:1', '--host', '0.0.0.0']);
    expect(exposed.code).toBe(2);
    expect(exposed.err).toMatch(/--host 0\.0\.0\.0 is not loopback: give --token-env NAME/);
    const key = await runCli(['gateway', 'openai', '--project', project, '--upstream', 'http://127.0.0.1:1', '--upstream-key-env', 'LOTS_TEST_UNSET_KEY']);
    expect(key.code).toBe(2);
    expect(key.err).toMatch(/the environment variable LOTS_TEST_UNSET_KEY is not set/);
    const bad = await runCli(['gateway', 'openai', '--project', project, '--upstream', 'localhost:8080']);
    expect(bad.err).toMatch(/--upstream must be an http\(s\) URL/);
    const deferred = await runCli(['gateway', 'openai', '--project', project, '--upstream', 'http://127.0.0.1:1', '--deferred', 'sometimes']);
    expect(deferred.code).toBe(2);
    expect(deferred.err).toMatch(/--deferred must be one of native, demote, hide, got "sometimes"/);
  });
});
