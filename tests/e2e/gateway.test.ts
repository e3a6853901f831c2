// The Gateway view in Chromium on a project a real OpenAI gateway is serving (in front of a small real
// upstream, tests/gateway/tiny-upstream.ts): its status record read by the Studio — requests per task,
// tools hidden, tokens saved, the batch it records and commits — next to an MCP gateway that was killed
// (shown as stopped since it was last seen); then "Fold" runs `lots update` on the committed, scored
// batch and leads to the Space view's new proposal. Screenshot: artifacts/screenshots/1280x800/gateway.png
// (LOTS_README_SHOTS=1 also copies it to assets/screenshots/gateway.png, tracked).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startOpenAIGateway, type RunningGateway } from '../../electron/engine/gateway/openai-gateway';
import { ProjectIndex } from '../../electron/engine/read-model/project-index';
import { ProjectStore } from '../../electron/engine/store';
import { updateSpaces } from '../../electron/engine/usecases/update';
import { describeRequiring } from '../describe-requiring';
import { chatRequest, gatewayTraces, makeProject, post, SPACE, TOOL_NAMES } from '../gateway/fixture';
import { startTinyUpstream, type TinyUpstream } from '../gateway/tiny-upstream';
import { ROOT, SHOTS, useStudioPage } from './studio';

let upstream: TinyUpstream;
let gateway: RunningGateway;
let project: string;

/** WebSearch, hidden by the approved space, scores second on the seed import: the update proposes it. */
const SCORES: Record<string, number> = { ExchangeRate: 0.8, WebSearch: 0.6, Calculator: 0.3 };
const row = (trace: string, exposed: readonly string[]) => ({
  key: `import:prod|${trace}`,
  run: 'import:prod',
  trace,
  task: 'fx',
  exposed: [...exposed],
  scores: Object.fromEntries(exposed.map((t) => [t, SCORES[t] ?? 0.05])),
});

describeRequiring('chromium', 'the Gateway view', () => {
  const s = useStudioPage('gateway', {
    before: async (work) => {
      project = makeProject(work);
      const store = ProjectStore.open(project);
      // The seed import is scored and folded already: the gateway's batch is the next one.
      store.appendScores([row('fx-1', TOOL_NAMES), row('fx-2', TOOL_NAMES)]);
      updateSpaces(store, new ProjectIndex(store), { task: 'fx' });
      // An MCP gateway that was killed: its record still says running, its process is gone.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const seen = new Date(Date.now() - 25 * 60_000).toISOString();
      store.writeGateway({
        v: 1,
        id: '20261130T090000-0c0ffe',
        kind: 'mcp',
        transport: 'stdio',
        url: 'stdio',
        upstream: 'npx server-filesystem',
        task: 'docs',
        pid: dead,
        hostname: hostname(),
        startedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
        updatedAt: seen,
        heartbeatMs: 5000,
        state: 'running',
        refused: 1,
        bySource: { header: 0, metadata: 0, router: 0, flag: 12, none: 0 },
        tasks: [{ task: 'docs', requests: 12, noSpace: 12, toolsHidden: 0, tokensSaved: 0, promptTokens: 0, failed: 0 }],
        batch: { source: 'gateway-mcp-20261130T090000-0c0ffe', recorded: 9, queued: 9, open: 0, committed: 0, files: [] },
      });
      upstream = await startTinyUpstream();
      gateway = await startOpenAIGateway({ store: ProjectStore.open(project), upstream: upstream.url });
      for (const text of ['convert 100 EUR to USD', 'how many yen is 250 dollars', 'EUR to CHF today']) {
        expect((await post(gateway.url, chatRequest(text), { 'x-lots-task': 'fx' })).status).toBe(200);
      }
      expect((await post(gateway.url, chatRequest('find the vacation policy'), { 'x-lots-task': 'docs' })).status).toBe(200);
      expect((await post(gateway.url, chatRequest('hello there'))).status).toBe(200);
      expect((await post(gateway.url, '{"model": "tiny", "messages": [')).status).toBe(400);
      await gateway.recorder.commit();
      // The committed fx traces are scored (as `lots score` would): the fold can take them.
      const fx = gatewayTraces(project).filter((t) => t.task === 'fx');
      ProjectStore.open(project).appendScores(
        fx.map((t) =>
          row(
            t.id,
            t.tools.map((x) => x.name),
          ),
        ),
      );
      // One more request after the commit: queued for the next one.
      await post(gateway.url, chatRequest('convert 5 GBP'), { 'x-lots-task': 'fx' });
    },
    ready: ({ studio }) => studio.service.openProject({ dir: project }),
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("shows the running gateway's requests per task, tools hidden, tokens saved and batch, and the killed one as stopped", async () => {
    const { ui, page } = s;
    await page.waitForSelector('[data-testid="view-home"] >> text=Review space');
    await ui.go('gateway');
    await page.waitForSelector('[data-testid="gateway-card"][data-status="running"] [data-testid="gateway-tasks"] tr[data-task="fx"]');
    // Its record is rewritten soon after each request: wait for the fourth fx request to show.
    await page.waitForFunction(
      () => document.querySelector('[data-status="running"] [data-testid="gateway-tasks"] tr[data-task="fx"] td:nth-child(3)')?.textContent === '4',
    );
    const card = page.locator('[data-testid="gateway-card"][data-status="running"]');
    const stat = (name: string) => card.locator(`[data-stat="${name}"] .value`).textContent();
    const saved = gateway.stats.tasks.get('fx')!.tokensSaved;
    expect(saved).toBeGreaterThan(0);
    expect(await stat('requests')).toBe('6');
    expect(await stat('passed')).toBe('2'); // docs has no approved space; one request had no task
    expect(await stat('refused')).toBe('1'); // the malformed JSON
    expect(await stat('hidden')).toBe(String(4 * (TOOL_NAMES.length - SPACE.length)));
    expect(await stat('saved')).toBe(`~${saved.toLocaleString('en-US')}`);
    const fxCells = await card.locator('[data-testid="gateway-tasks"] tr[data-task="fx"] td').allTextContents();
    // The space served with its three states; no deferred tool, so none called while deferred; no failure, so no column of them.
    expect(fxCells).toEqual(['fx', 'v0 2 pinned · 0 deferred · 2 hidden', '4', '—', '8', '—', `~${saved.toLocaleString('en-US')}`, '44']);
    const docsCells = await card.locator('[data-testid="gateway-tasks"] tr[data-task="docs"] td').allTextContents();
    expect(docsCells.slice(1, 5)).toEqual(['none approved', '1', '1', '0']);
    expect(await card.locator('[data-testid="gateway-batch"]').textContent()).toMatch(
      new RegExp(`gateway-openai-${gateway.session}: 6 traces recorded, 1 waiting for the next commit; 5 committed into 0002\\.jsonl, last at`),
    );
    const lost = page.locator('[data-testid="gateway-stopped"] tr[data-status="lost"] td');
    expect(await lost.allTextContents()).toEqual([
      'MCP · task docs',
      expect.stringMatching(/^stopped \(not seen since .+, 25 min ago\)$/),
      '12',
      '0',
      '0',
      '0',
      '9', // held in memory when it was killed: lost with it
    ]);
    expect(await page.textContent('[data-testid="fold-gateway-batches"]')).toBe('Fold 1 batch (lots update)');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await ui.shot('gateway');
    if (process.env.LOTS_README_SHOTS) {
      mkdirSync(join(ROOT, 'assets', 'screenshots'), { recursive: true });
      copyFileSync(join(SHOTS, '1280x800', 'gateway.png'), join(ROOT, 'assets', 'screenshots', 'gateway.png'));
    }
    expect(ui.errors).toEqual([]);
  });

  it("folds the recorded batch with lots update and opens the Space view's new proposal", async () => {
    const { page, ui } = s;
    await page.click('[data-testid="fold-gateway-batches"]');
    await page.waitForSelector('[data-testid="gateway-fold-result"]');
    expect(await page.textContent('[data-testid="gateway-fold-result"]')).toContain('Folded 1 batch of fx: a new proposal is ready; nothing was applied.');
    expect(await page.getAttribute('[data-testid="gateway-fold-tasks"] tr[data-task="fx"] [data-file="0002.jsonl"]', 'data-state')).toBe('folded');
    await ui.shot('gateway-folded');
    const updates = ProjectStore.open(project).readUpdates('fx')!;
    expect(updates.batches.map((b) => b.source)).toEqual(['0001.jsonl', '0002.jsonl']);
    await page.click('[data-testid="open-space-proposal"]');
    await page.waitForSelector('[data-testid="space-update-proposal"]');
    expect(await page.textContent('[data-testid="space-update-proposal"]')).toMatch(/after batch 2 proposes/);
    expect(ProjectStore.open(project).readSpaces('fx').versions).toHaveLength(1); // nothing applied
    expect(ui.errors).toEqual([]);
  });
});
