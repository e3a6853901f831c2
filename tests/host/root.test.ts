// `lots ui --root DIR` through the real web host, over HTTP with the token: whoever holds the token reaches
// the files of DIR only. Paths outside, `..` out of it and symbolic links out of it are refused with
// OUTSIDE_ROOT (nothing is written outside); paths inside work as usual.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioService } from '../../electron/engine/api';
import { startWebHost, type WebHost } from '../../electron/host/host';
import { makeLineTraces, makeScoreRows, toJsonl } from '../e2e/fixtures';
import { ProjectStore } from '../../electron/engine/store';

let base: string;
let root: string;
let outside: string;
let host: WebHost;
let service: StudioService;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'lots-host-root-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  const staticDir = join(base, 'static');
  for (const d of [root, outside, staticDir]) mkdirSync(d);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>LOTS</title>');
  writeFileSync(join(outside, 'traces.jsonl'), toJsonl(makeLineTraces({ task: 'secret', requests: 2, tools: 4 })));
  symlinkSync(outside, join(root, 'out-link'));
  service = new StudioService({ transport: 'web', configDir: join(base, 'config'), root });
  host = await startWebHost({ service, events: service.events, staticDir });
});

afterAll(async () => {
  await host?.close();
  service?.dispose();
  rmSync(base, { recursive: true, force: true });
});

async function call(method: string, input: unknown): Promise<{ ok: boolean; value?: Record<string, unknown>; error?: { code: string; message: string } }> {
  const res = await fetch(`${host.url}api/call/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(input ?? null),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe('the web host with --root', () => {
  it('refuses every path outside the root over HTTP, with OUTSIDE_ROOT and the root named', async () => {
    for (const [method, input] of [
      ['openProject', { dir: outside }],
      ['createProject', { dir: join(root, '..', 'outside', 'new') }],
      ['createProject', { dir: join(root, 'out-link', 'new') }],
      ['inspectModel', { path: '/etc/passwd' }],
    ] as const) {
      const reply = await call(method, input);
      expect(reply, `${method} ${JSON.stringify(input)}`).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
      expect(reply.error!.message).toContain(`outside ${root}`);
    }
    expect(existsSync(join(outside, 'new'))).toBe(false);
  });

  it('works inside the root: create a project, import, and save an export; imports and exports through a link out are refused', async () => {
    expect(await call('createProject', { dir: join(root, 'p') })).toMatchObject({ ok: true, value: { dir: join(root, 'p') } });
    expect(await call('importTraces', { paths: [join(root, 'out-link', 'traces.jsonl')] })).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
    const traces = makeLineTraces({ task: 'fx', requests: 3, tools: 4 });
    writeFileSync(join(root, 'in.jsonl'), toJsonl(traces));
    expect(await call('importTraces', { paths: ['in.jsonl'] })).toMatchObject({ ok: true, value: { files: [{ added: 3 }] } });
    // Scores (imported ones) so the task has a ranking to accept a space from.
    ProjectStore.open(join(root, 'p')).appendScores(makeScoreRows(traces));
    expect(await call('acceptSpace', { task: 'fx', tools: ['RateLookup'], rule: { kind: 'manual' }, note: 'n' })).toMatchObject({ ok: true });
    expect(await call('saveExport', { task: 'fx', format: 'space', path: join(root, 'out-link', 'space.json') })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_ROOT' },
    });
    expect(existsSync(join(outside, 'space.json'))).toBe(false);
    expect(await call('saveExport', { task: 'fx', format: 'space', path: 'space.json' })).toMatchObject({
      ok: true,
      value: { path: join(root, 'space.json') },
    });
    expect(readFileSync(join(root, 'space.json'), 'utf8')).toContain('RateLookup');
    expect((await call('listRecentProjects', null)).value).toMatchObject([{ dir: join(root, 'p') }]);
  });
});
