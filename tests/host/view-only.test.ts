// Issue 40 item 15: `lots ui` prints a second, view-only link for an audience. Its token reads the open
// project and its Demo view and nothing else, enforced by the host per API method (shared/api/access.ts
// marks each one read or write). Against a real `lots ui` process: EVERY method of the contract is called
// with the view-only token; each write/job/file/project-opening method is refused with 403 and has no
// effect, each read answers exactly what the full token gets.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHOD_NAMES } from '../../shared/api/channels';
import { API_METHOD_ACCESS } from '../../shared/api/access';
import { EXPORT_FORMATS } from '../../shared/api/types';
import { ProjectStore } from '../../electron/engine/store';
import { makeLineTraces } from '../e2e/fixtures';
import { ensureRendererBuilt } from '../e2e/studio';
import { call, startUiProcess, type UiProcess } from './ui-process';

const base = mkdtempSync(join(tmpdir(), 'lots-view-only-'));
const project = join(base, 'proj');
const traces = makeLineTraces({ task: 'fx', requests: 2, tools: 3, seed: 3 });
let ui: UiProcess;
let viewToken: string;

/** An input for each read method (a method added as 'read' without one here fails the test). */
const READ_INPUTS: Record<string, unknown> = {
  getAppInfo: null,
  getProject: null,
  getHeatmap: { task: 'fx' },
  getTrace: { id: traces[0]!.id },
  getRanking: { task: 'fx' },
  getBudget: { task: 'fx' },
  getSpaces: { task: 'fx' },
  getHistory: { task: 'fx' },
  compareRuns: { task: 'fx', runA: 'a', runB: 'b' },
  getGateways: null,
  renderExport: { task: 'fx', format: EXPORT_FORMATS[0] },
  renderReport: { task: 'fx' },
  listJobs: null,
  getDemo: null,
  renderDemoReport: null,
};

/** The answer with its moments blanked (two calls are not made at the same millisecond). */
const timeless = (body: unknown): unknown => JSON.parse(JSON.stringify(body).replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"(time)"'));

beforeAll(async () => {
  ProjectStore.create(project).addTraces(traces, 'gen.jsonl');
  ensureRendererBuilt();
  ui = await startUiProcess(['--project', project]);
  const line = /View only \(.*\): (http:\S+)/.exec(ui.output());
  expect(line).not.toBeNull();
  viewToken = new URL(line![1]!).searchParams.get('token')!;
  expect(viewToken).not.toBe(ui.token);
}, 120_000);
afterAll(async () => {
  await ui?.stop();
});

describe('the view-only link of lots ui', () => {
  it('every method: writes refused with 403 (and without effect), reads answered as to the full token', async () => {
    const refused: string[] = [];
    for (const method of API_METHOD_NAMES) {
      if (API_METHOD_ACCESS[method] === 'write') {
        // A real input where one matters: the refusal must come before the method runs.
        const input =
          method === 'createProject'
            ? { dir: join(base, 'made-by-view') }
            : method === 'saveExport'
              ? { task: 'fx', format: EXPORT_FORMATS[0], path: join(base, 'x.json') }
              : null;
        const reply = await call(ui, viewToken, method, input);
        expect(reply.status, method).toBe(403);
        expect(String(reply.body), method).toContain(`${method} is not open to the view-only link`);
        refused.push(method);
      } else {
        expect(Object.hasOwn(READ_INPUTS, method), `give ${method} an input in READ_INPUTS`).toBe(true);
        const asViewer = await call(ui, viewToken, method, READ_INPUTS[method]);
        const asOwner = await call(ui, ui.token, method, READ_INPUTS[method]);
        expect(asViewer.status, method).toBe(200);
        if (method === 'getAppInfo') {
          expect(asViewer.body).toMatchObject({ ok: true, value: { viewOnly: true } });
          expect((asOwner.body as { value: { viewOnly?: boolean } }).value.viewOnly).toBeUndefined();
        } else if (method === 'renderDemoReport' || method === 'renderReport') {
          expect((asViewer.body as { ok: boolean }).ok, method).toBe((asOwner.body as { ok: boolean }).ok);
        } else expect(timeless(asViewer.body), method).toEqual(timeless(asOwner.body));
      }
    }
    // What the audience may not do, named: opening, creating, importing, approving, jobs, files, settings.
    expect(refused).toEqual(
      expect.arrayContaining([
        'openProject',
        'createProject',
        'importTraces',
        'acceptSpace',
        'startScoring',
        'saveExport',
        'checkScoringServer',
        'listRecentProjects',
      ]),
    );
    expect(existsSync(join(base, 'made-by-view'))).toBe(false);
    expect(existsSync(join(base, 'x.json'))).toBe(false);
    // The project stayed open and unchanged.
    expect(await call(ui, ui.token, 'getProject')).toMatchObject({ body: { ok: true, value: { traces: traces.length } } });
  });

  it('the link sets a cookie that carries the same limits', async () => {
    const page = await fetch(`${ui.url}?token=${encodeURIComponent(viewToken)}`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const post = (method: string, body: unknown): Promise<Response> =>
      fetch(`${ui.url}api/call/${method}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('getProject', null)).status).toBe(200);
    expect((await post('openProject', { dir: base })).status).toBe(403);
  });
});
