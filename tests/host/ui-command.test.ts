// `lots ui` serves the built UI with a token and prints the URL to open.
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startUi } from '../../electron/cli/commands/ui';
import type { WebHost } from '../../electron/host/host';
import { ensureRendererBuilt } from '../e2e/studio';

let host: WebHost | undefined;
afterAll(async () => {
  await host?.close();
});

describe('lots ui', () => {
  it('prints a tokenised 127.0.0.1 URL and opens the given project', async () => {
    ensureRendererBuilt();
    process.env.LOTS_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'lots-cfg-'));
    const out: string[] = [];
    const project = join(mkdtempSync(join(tmpdir(), 'lots-ui-')), 'proj');
    host = await startUi(
      { positionals: [], flags: { project, port: '0', bind: '127.0.0.1' } },
      { out: (t) => out.push(t), err: (t) => out.push(t), isTTY: false },
    );
    expect(out.join('\n')).toMatch(/Open: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}/);
    const page = await fetch(host.openUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const html = await fetch(host.url, { headers: { Cookie: cookie } });
    expect(await html.text()).toContain('<div id="root">');
    const summary = await fetch(`${host.url}api/call/getProject`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: 'null',
    });
    expect(await summary.json()).toMatchObject({ ok: true, value: { name: 'proj', traces: 0 } });
    expect((await fetch(host.url)).status).toBe(401);
    await host.close();
    host = undefined;
  });

  it('with --root, prints the root in its startup line and refuses a --project outside it', async () => {
    ensureRendererBuilt();
    process.env.LOTS_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'lots-cfg-'));
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'lots-ui-root-')));
    const root = join(base, 'root');
    mkdirSync(root);
    const io = (out: string[]) => ({ out: (t: string) => out.push(t), err: (t: string) => out.push(t), isTTY: false });
    await expect(startUi({ positionals: [], flags: { root: join(base, 'missing'), port: '0', bind: '127.0.0.1' } }, io([]))).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/--root .*missing: no such folder/),
    });
    await expect(startUi({ positionals: [], flags: { root, project: join(base, 'elsewhere'), port: '0', bind: '127.0.0.1' } }, io([]))).rejects.toMatchObject({
      code: 'OUTSIDE_ROOT',
    });
    const out: string[] = [];
    host = await startUi({ positionals: [], flags: { root, project: join(root, 'proj'), port: '0', bind: '127.0.0.1' } }, io(out));
    const first = out.find((l) => l.startsWith('LOTS Studio is served at'));
    expect(first).toMatch(/^LOTS Studio is served at http:\/\/127\.0\.0\.1:\d+\/; files confined to /);
    expect(first!.endsWith(`files confined to ${root} (--root)`)).toBe(true);
    const reply = await fetch(`${host.url}api/call/openProject`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ dir: base }),
    });
    expect(await reply.json()).toMatchObject({ ok: false, error: { code: 'OUTSIDE_ROOT' } });
  });
});
