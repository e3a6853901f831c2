// `lots ui` serves the built UI with a token and prints the URL to open.
import { mkdtempSync } from 'node:fs';
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
    host = await startUi({ positionals: [], flags: { project, port: '0', bind: '127.0.0.1' } }, { out: (t) => out.push(t), err: (t) => out.push(t), isTTY: false });
    expect(out.join('\n')).toMatch(/Open: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}/);
    const page = await fetch(host.openUrl, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const html = await fetch(host.url, { headers: { Cookie: cookie } });
    expect(await html.text()).toContain('<div id="root">');
    const summary = await fetch(`${host.url}api/call/getProject`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: 'null' });
    expect(await summary.json()).toMatchObject({ ok: true, value: { name: 'proj', traces: 0 } });
    expect((await fetch(host.url)).status).toBe(401);
  });
});
