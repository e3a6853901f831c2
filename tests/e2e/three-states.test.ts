// Three-state spaces and gateway status in Chromium (issues 44 and 37), on a copy of the bundled sample
// project whose fx_settle space is approved as proposed (top K pinned, the other ranked tools deferred,
// the rest hidden) and served by a real OpenAI gateway (in front of a small real upstream,
// tests/gateway/tiny-upstream.ts) next to a real MCP gateway whose upstream could not be started again:
// the Gateway view shows the served space's three states, the deferred tool the agent called anyway,
// the router's unrouted requests and the MCP gateway's failure; the Heatmap marks each column's state
// in the approved space; the Budget view lists pinned / deferred / hidden at K and the menu's cost three
// ways. Screenshots at 1280×800 and 1920×1080: artifacts/screenshots/<size>/views-*.png.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startOpenAIGateway, type RunningGateway } from '../../electron/engine/gateway/openai-gateway';
import { ProjectStore } from '../../electron/engine/store';
import { DEFAULT_SAMPLE_PROJECT_DIR } from '../../electron/engine/usecases/demo';
import type { SpaceState } from '../../shared/api';
import { describeRequiring } from '../describe-requiring';
import { runFailedMcpGateway } from '../gateway/failed-mcp-gateway';
import { post } from '../gateway/fixture';
import { startTinyUpstream, type TinyUpstream } from '../gateway/tiny-upstream';
import { SIZES, useStudioPage } from './studio';

const TASK = 'fx_settle';
let project: string;
let upstream: TinyUpstream;
let gateway: RunningGateway;
let proposal: SpaceState['proposal'];

describeRequiring('chromium', 'three-state spaces and gateway status (issues 44, 37)', () => {
  const s = useStudioPage('three-states', {
    before: (work) => {
      project = join(work, 'sample');
      cpSync(DEFAULT_SAMPLE_PROJECT_DIR, project, { recursive: true });
      // The project was routed once (`lots route`): the gateway has a router, with the threshold its data gives.
      const store = ProjectStore.open(project);
      store.addTraces([{ v: 1, id: 'unlabelled-1', tools: [], turns: [{ request: 'What is 17 times 23?', steps: [], answer: '391' }] }], 'later.jsonl');
      store.writeRoutes({ 'unlabelled-1': 'compute_only' }, 'test');
    },
    ready: async ({ studio, work }) => {
      await studio.service.openProject({ dir: project });
      const space = await studio.service.getSpaces({ task: TASK });
      proposal = space.proposal;
      expect(proposal.deferred.length).toBeGreaterThan(0);
      await studio.service.acceptSpace({
        task: TASK,
        tools: proposal.tools,
        deferred: proposal.deferred,
        pinned: [],
        banned: [],
        rule: proposal.rule,
        note: 'the proposal: top K pinned, the other ranked tools deferred',
      });
      // The real OpenAI gateway: fx_settle requests with the task's recorded menu; the agent calls a deferred tool.
      const menu = ProjectStore.open(project).listTraces((i) => i.task === TASK)[0]!.tools;
      const tools = menu.map((d) => ({
        type: 'function',
        function: { name: d.name, description: d.description ?? '', parameters: d.parameters ?? { type: 'object', properties: {} } },
      }));
      upstream = await startTinyUpstream();
      gateway = await startOpenAIGateway({ store: ProjectStore.open(project), upstream: upstream.url });
      const deferred = proposal.deferred[0]!;
      const ask = { role: 'user', content: 'Settle an invoice of 1,250 EUR in USD at today’s rate.' };
      upstream.replies.push({ kind: 'call', name: deferred, arguments: { query: 'EUR USD' }, id: 'call_d' }, { kind: 'text', text: 'USD 1,350.00' });
      const header = { 'x-lots-task': TASK };
      expect((await post(gateway.url, { model: 'tiny', messages: [ask], tools }, header)).status).toBe(200);
      const call = {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_d', type: 'function', function: { name: deferred, arguments: '{"query":"EUR USD"}' } }],
      };
      const follow = { model: 'tiny', messages: [ask, call, { role: 'tool', tool_call_id: 'call_d', content: '1.08' }], tools };
      expect((await post(gateway.url, follow, header)).status).toBe(200);
      expect((await post(gateway.url, { model: 'tiny', messages: [{ role: 'user', content: 'Convert 90 GBP to JPY.' }], tools }, header)).status).toBe(200);
      // Two requests that name no task and resemble none: unrouted.
      for (const text of ['Write a haiku about the sea.', 'Who painted the ceiling of the Sistine Chapel?'])
        expect((await post(gateway.url, { model: 'tiny', messages: [{ role: 'user', content: text }], tools })).status).toBe(200);
      await gateway.recorder.commit();
      gateway.status.beat();
      // A real MCP gateway whose upstream crashes and cannot be started again: it stops with a failure.
      await runFailedMcpGateway(project, work);
    },
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  async function shots(name: string): Promise<void> {
    for (const [w, h] of SIZES) {
      await s.page.setViewportSize({ width: w, height: h });
      await s.ui.settle();
      await s.ui.shot(`views-${name}`);
    }
    await s.page.setViewportSize({ width: 1280, height: 800 });
  }

  it('Gateway: the served space’s three states, the deferred tool called anyway, the unrouted requests and the failed MCP gateway', async () => {
    const { page, ui } = s;
    await ui.go('gateway');
    const card = page.locator('[data-testid="gateway-card"][data-status="running"]');
    await card.waitFor();
    const row = card.locator(`[data-testid="gateway-tasks"] tr[data-task="${TASK}"]`);
    const menu = new Set(
      ProjectStore.open(project)
        .listTraces((i) => i.task === TASK)
        .flatMap((t) => t.tools.map((d) => d.name)),
    );
    const hidden = menu.size - proposal.tools.length - proposal.deferred.length;
    expect(await row.locator('[data-testid="gateway-space-states"]').textContent()).toBe(
      `v1 ${proposal.tools.length} pinned · ${proposal.deferred.length} deferred · ${hidden} hidden`,
    );
    expect(await row.locator('[data-testid="gateway-deferred-calls"]').textContent()).toBe(`${proposal.deferred[0]} ×1`);
    expect(await card.locator('[data-stat="deferred-calls"] .value').textContent()).toBe('1');
    expect(await card.locator('[data-stat="unrouted"] .value').textContent()).toBe('2');
    expect(await card.locator('[data-testid="gateway-unrouted-table"] tbody td:nth-child(2)').allTextContents()).toEqual([
      'Who painted the ceiling of the Sistine Chapel?',
      'Write a haiku about the sea.',
    ]);
    const failed = page.locator('[data-testid="gateway-failed"]');
    expect(await failed.getAttribute('role')).toBe('alert');
    expect(await failed.textContent()).toMatch(/^MCP gateway · task files failed and stopped .*could not be started again after 1 attempt/);
    expect(await page.locator('[data-testid="gateway-stopped"] .pill.bad').first().textContent()).toMatch(/^✕ failed, stopped /);
    await shots('gateway');
    expect(ui.errors).toEqual([]);
  });

  it('Heatmap: each column marked with its state in the approved space, in the legend and for the keyboard', async () => {
    const { page, ui } = s;
    await ui.go('home');
    await page.click(`[data-testid="task-table"] tr[data-task="${TASK}"]`);
    await ui.go('heatmap');
    await page.waitForSelector('[data-testid="heatmap-scroller"][data-visible-rows]');
    await ui.settle();
    const cols = Number((await page.getAttribute('[data-testid="heatmap-scroller"]', 'aria-label'))!.match(/× (\d+) tools/)![1]);
    expect(await page.locator('[data-testid="legend-states"]').textContent()).toBe(
      `state in approved v1:● pinned (${proposal.tools.length})○ deferred (${proposal.deferred.length})× hidden (${cols - proposal.tools.length - proposal.deferred.length})`,
    );
    await shots('heatmap');
    // The keyboard cursor names each column's state.
    await page.focus('[data-testid="heatmap-scroller"]');
    const states: string[] = [];
    for (let c = 0; c < cols; c++) {
      if (c > 0) await page.keyboard.press('ArrowRight');
      else {
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowLeft');
      }
      const m = (await page.locator('[data-testid="heatmap-live"]').textContent())!.match(/^(\S+), (pinned|deferred|hidden) in approved v1: /);
      expect(m).not.toBeNull();
      states.push(`${m![1]}=${m![2]}`);
    }
    for (const t of proposal.tools) expect(states).toContain(`${t}=pinned`);
    for (const t of proposal.deferred) expect(states).toContain(`${t}=deferred`);
    expect(states.filter((x) => x.endsWith('=hidden'))).toHaveLength(cols - proposal.tools.length - proposal.deferred.length);
    expect(ui.errors).toEqual([]);
  });

  it('Budget: pinned, deferred and hidden at K, and the menu’s cost pinned only / pinned + deferred / keep-all', async () => {
    const { page, ui } = s;
    await ui.go('budget');
    await page.waitForSelector('[data-testid="budget-states"]');
    const chips = (id: string) => page.locator(`[data-testid="${id}"] .chip`).allTextContents();
    expect(await chips('kept-set')).toEqual(proposal.tools);
    expect(await chips('deferred-set')).toEqual(proposal.deferred);
    const tokens = async (key: string) =>
      Number((await page.locator(`[data-testid="budget-menu-cost"] tr[data-cost="${key}"] .budget-cost-value`).textContent())!.replace(/,/g, ''));
    const [pinned, both, all] = [await tokens('pinned'), await tokens('pinned-deferred'), await tokens('keep-all')];
    expect(pinned).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(pinned);
    // The sample's tools were recorded without parameter schemas: demoted costs what full does, and the view says so.
    expect(all).toBe(both);
    expect(await page.locator('[data-testid="budget-demotion-saves-nothing"]').textContent()).toMatch(
      /^The deferred tools’ recorded definitions carry no parameter schema/,
    );
    await shots('budget');
    // The slider by keyboard: one step down pins one tool fewer and defers it.
    await page.focus('[data-testid="k-slider"]');
    await page.keyboard.press('ArrowLeft');
    await ui.settle();
    expect(await chips('kept-set')).toEqual(proposal.tools.slice(0, -1));
    expect((await chips('deferred-set'))[0]).toBe(proposal.tools.at(-1));
    expect(await page.getAttribute('[data-testid="k-slider"]', 'aria-valuetext')).toMatch(
      new RegExp(`^K = ${proposal.tools.length - 1}: ${proposal.tools.length - 1} pinned, ${proposal.deferred.length + 1} deferred, \\d+ hidden$`),
    );
    expect(ui.errors).toEqual([]);
  });

  it('the three views in the dark theme: the state marks and bars keep their contrast', async () => {
    const { page, ui } = s;
    await page.click('button[aria-label="Toggle dark theme"]');
    for (const view of ['budget', 'heatmap', 'gateway']) {
      await ui.go(view);
      await ui.settle();
      await ui.shot(`views-${view}-dark`);
    }
    await page.click('button[aria-label="Toggle dark theme"]');
    expect(ui.errors).toEqual([]);
  });
});
