// @vitest-environment happy-dom
// The Gateway view against a fake engine: the empty state with the two commands that start a gateway;
// a running gateway's requests per task, tools hidden, tokens saved and the batch it records; a killed
// one shown as stopped since it was last seen; and the fold button running `lots update` (updateSpace)
// for the tasks with a batch ready, then pointing to the Space view's new proposal.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayInfo, GatewayViewData, UpdateResult } from '../../../shared/api';
import { fakeApi, PROJECT_DIR, renderStudio, TASK } from '../fake-api';

afterEach(cleanup);

const NOW = '2026-12-01T10:05:00.000Z';
const running: GatewayInfo = {
  id: '20261201T100000-a1b2c3',
  kind: 'openai',
  transport: 'http',
  url: 'http://127.0.0.1:8808/v1',
  upstream: 'http://127.0.0.1:8080',
  task: null,
  pid: 4242,
  hostname: 'ana-laptop',
  startedAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:04:58.000Z',
  stoppedAt: null,
  heartbeatMs: 5000,
  status: 'running',
  stopping: false,
  refused: 2,
  failure: null,
  upstreamFailures: null,
  upstreamDown: false,
  unrouted: null,
  passedThrough: 0,
  calledWhileDeferred: 0,
  bySource: { header: 40, metadata: 0, router: 5, flag: 0, none: 3 },
  tasks: [
    { task: TASK, requests: 45, noSpace: 0, toolsHidden: 270, tokensSaved: 20_070, promptTokens: 13_380, failed: 1, spaceVersion: 2 },
    { task: null, requests: 3, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 2436, failed: 0 },
  ],
  totals: { requests: 48, noSpace: 0, toolsHidden: 270, tokensSaved: 20_070, promptTokens: 15_816, failed: 1 },
  batch: { source: 'gateway-openai-20261201T100000-a1b2c3', recorded: 46, queued: 6, open: 1, committed: 40, files: ['0004.jsonl'] },
};
const lost: GatewayInfo = {
  ...running,
  id: '20261130T090000-ffffff',
  kind: 'mcp',
  transport: 'stdio',
  url: 'stdio',
  upstream: 'npx server-filesystem',
  task: 'files',
  status: 'lost',
  updatedAt: '2026-12-01T09:35:00.000Z',
  tasks: [{ task: 'files', requests: 7, noSpace: 0, toolsHidden: 60, tokensSaved: 3100, promptTokens: 0, failed: 0, spaceVersion: 0 }],
  totals: { requests: 7, noSpace: 0, toolsHidden: 60, tokensSaved: 3100, promptTokens: 0, failed: 0 },
};
const data: GatewayViewData = {
  checkedAt: NOW,
  gateways: [running, lost],
  fold: [
    {
      task: TASK,
      batches: [
        { file: '0003.jsonl', kind: 'openai', gateway: 'x', traces: 20, scored: 20, state: 'folded' },
        { file: '0004.jsonl', kind: 'openai', gateway: running.id, traces: 40, scored: 40, state: 'ready' },
      ],
      traces: 60,
      scored: 60,
      hasScores: true,
      ready: 1,
      approvedVersion: 2,
      lastFold: 3,
    },
  ],
};

describe('GatewayView', () => {
  it('without a gateway, shows the two commands that start one, for this project', async () => {
    await renderStudio({ view: 'gateway' });
    const empty = within(screen.getByTestId('empty-state'));
    expect(empty.getByText('No gateway has served this project yet')).toBeTruthy();
    const commands = screen.getByTestId('gateway-commands').textContent;
    expect(commands).toContain(`lots gateway openai --project ${PROJECT_DIR} --upstream http://127.0.0.1:8080`);
    expect(commands).toContain(`lots gateway mcp --project ${PROJECT_DIR} --task T \\\n    -- npx`);
  });

  it("shows a running gateway's requests per task, tools hidden, tokens saved and batch; a killed one as stopped since last seen", async () => {
    await renderStudio({ view: 'gateway' }, fakeApi({ getGateways: async () => structuredClone(data) }));
    const cards = await screen.findAllByTestId('gateway-card');
    expect(cards.map((c) => c.getAttribute('data-status'))).toEqual(['running']);
    const card = within(cards[0]!);
    expect(card.getByText('running')).toBeTruthy();
    expect(card.getByText('http://127.0.0.1:8808/v1')).toBeTruthy();
    const stat = (name: string) => cards[0]!.querySelector(`[data-stat="${name}"] .value`)!.textContent;
    expect([stat('requests'), stat('passed'), stat('refused'), stat('hidden'), stat('saved'), stat('prompt')]).toEqual([
      '48',
      '3',
      '2',
      '270',
      '~20,070',
      '15,816',
    ]);
    const row = cards[0]!.querySelector(`[data-testid="gateway-tasks"] tr[data-task="${TASK}"]`)!;
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([TASK, 'v2', '45', '—', '270', '—', '~20,070', '13,380', '1']);
    const noTask = cards[0]!.querySelector('[data-testid="gateway-tasks"] tr[data-task=""]')!;
    expect([...noTask.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['no task', '—', '3', '3', '0', '—', '0', '2,436', '—']);
    expect(card.getByTestId('gateway-batch').textContent).toMatch(
      /gateway-openai-20261201T100000-a1b2c3: 46 traces recorded, 6 waiting for the next commit, 1 answer calling tools .*; 40 committed into 0004\.jsonl\./,
    );
    // The killed one is among the stopped gateways: not seen since its last heartbeat, its uncommitted traces lost.
    const killed = screen.getByTestId('gateway-stopped').querySelector(`tr[data-status="lost"]`)!;
    expect([...killed.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'MCP · task files',
      expect.stringMatching(/^stopped \(not seen since .*, 30 min ago\)$/),
      '7',
      '60',
      '~3,100',
      '40',
      '7',
    ]);
  });

  it('says what failed: an MCP gateway whose upstream is down is not "running", one that stopped on a failure says why', async () => {
    const down: GatewayInfo = {
      ...lost,
      id: '20261201T100100-d0d0d0',
      transport: 'http',
      url: 'http://127.0.0.1:8809/mcp',
      status: 'running',
      updatedAt: '2026-12-01T10:04:59.000Z',
      upstreamFailures: {
        count: 2,
        restarts: 1,
        last: 'the upstream MCP server (npx server-filesystem) was killed by SIGKILL',
        at: '2026-12-01T10:04:30.000Z',
      },
      upstreamDown: true,
    };
    const failed: GatewayInfo = {
      ...lost,
      id: '20261201T090000-eeeeee',
      status: 'stopped',
      stoppedAt: '2026-12-01T10:02:00.000Z',
      failure:
        'the upstream MCP server (npx server-filesystem) exited with code 1 (last stderr: EACCES /data); the gateway ends so that its MCP host can restart it',
      upstreamFailures: { count: 1, restarts: 0, last: 'the upstream MCP server (npx server-filesystem) exited with code 1', at: '2026-12-01T10:02:00.000Z' },
      upstreamDown: true,
    };
    await renderStudio({ view: 'gateway' }, fakeApi({ getGateways: async () => ({ ...structuredClone(data), gateways: [down, failed] }) }));
    const card = await screen.findByTestId('gateway-card');
    expect(within(card).queryByText('running')).toBeNull();
    expect(within(card).getByTestId('gateway-upstream-down').textContent).toBe('✕ upstream down: not serving');
    // The MCP gateway records no deferral: no "called while deferred" on its card.
    expect(card.querySelector('[data-stat="deferred-calls"]')).toBeNull();
    expect(within(card).getByTestId('gateway-upstream-failures').textContent).toMatch(
      /^The upstream failed 2 times, started again once — not serving until it starts again\. Last, .* \(30 s ago\): the upstream MCP server \(npx server-filesystem\) was killed by SIGKILL$/,
    );
    const alert = screen.getByTestId('gateway-failed');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('MCP gateway · task files failed and stopped');
    expect(alert.textContent).toContain('exited with code 1 (last stderr: EACCES /data)');
    const row = screen.getByTestId('gateway-stopped').querySelector(`tr[data-gateway="${failed.id}"]`)!;
    expect(row.querySelector('.pill.bad')!.textContent).toMatch(/^✕ failed, stopped /);
  });

  it("lists the router's unrouted requests, the served space's three states and the deferred tools called anyway", async () => {
    const g: GatewayInfo = {
      ...running,
      unrouted: {
        count: 2,
        recent: [
          { at: '2026-12-01T10:01:00.000Z', text: 'Write a haiku about the sea.', nearest: TASK, similarity: 0.0412, threshold: 0.198 },
          { at: '2026-12-01T10:03:00.000Z', text: 'What is the capital of Peru?', nearest: 'docs', similarity: 0.12, threshold: 0.198 },
        ],
      },
      passedThrough: 4,
      calledWhileDeferred: 3,
      tasks: [
        {
          ...running.tasks[0]!,
          states: { version: 2, pinned: 2, deferred: 1, hidden: 5 },
          recorded: 40,
          deferredServed: 40,
          calledWhileDeferred: [
            { tool: 'WebSearch', traces: 2 },
            { tool: 'Calculator', traces: 1 },
          ],
        },
        running.tasks[1]!,
      ],
    };
    await renderStudio({ view: 'gateway' }, fakeApi({ getGateways: async () => ({ ...structuredClone(data), gateways: [g] }) }));
    const card = await screen.findByTestId('gateway-card');
    const stat = (name: string) => card.querySelector(`[data-stat="${name}"] .value`)!.textContent;
    expect([stat('unrouted'), stat('deferred-calls')]).toEqual(['2', '3']);
    const row = card.querySelector(`[data-testid="gateway-tasks"] tr[data-task="${TASK}"]`)!;
    expect(within(row as HTMLElement).getByTestId('gateway-space-states').textContent).toBe('v2 2 pinned · 1 deferred · 5 hidden');
    expect(within(row as HTMLElement).getByTestId('gateway-deferred-calls').textContent).toBe('WebSearch ×2, Calculator ×1');
    const unrouted = within(card).getByTestId('gateway-unrouted');
    expect(unrouted.querySelector('summary')!.textContent).toMatch(/^2 requests unrouted: .*lots route makes tasks of them/);
    // Newest first, with the nearest task and the similarity under the threshold.
    const rows = [...unrouted.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent));
    expect(rows).toEqual([
      ['What is the capital of Peru?', 'docs', '0.120 < 0.198'],
      ['Write a haiku about the sea.', TASK, '0.041 < 0.198'],
    ]);
    expect(within(card).getByTestId('gateway-passed-other').textContent).toMatch(/^4 other requests \(not chat/);
    // No failed request: no column of failures.
    const noFailures: GatewayInfo = { ...g, tasks: g.tasks.map((t) => ({ ...t, failed: 0 })) };
    expect(card.querySelectorAll('[data-testid="gateway-tasks"] th').length).toBe(9);
    cleanup();
    await renderStudio({ view: 'gateway' }, fakeApi({ getGateways: async () => ({ ...structuredClone(data), gateways: [noFailures] }) }));
    const table = await screen.findByTestId('gateway-tasks');
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).not.toContain('Failed');
    expect(table.querySelectorAll('th').length).toBe(8);
  });

  it('folds the ready batches with lots update and points to the Space view’s new proposal', async () => {
    const result: UpdateResult = {
      task: TASK,
      updates: null,
      proposal: ['ExchangeRate'],
      waiting: [],
      versions: [],
      stream: null,
      folded: 1,
      refoldReason: null,
    };
    const { api, store } = await renderStudio(
      { view: 'gateway' },
      fakeApi({ getGateways: async () => structuredClone(data), updateSpace: async () => structuredClone(result) }),
    );
    const fold = await screen.findByTestId('fold-gateway-batches');
    expect(fold.textContent).toBe('Fold 1 batch (lots update)');
    const row = screen.getByTestId('gateway-fold-tasks').querySelector(`tr[data-task="${TASK}"]`)!;
    expect([...row.querySelectorAll('[data-state]')].map((c) => c.getAttribute('data-state'))).toEqual(['folded', 'ready']);
    fireEvent.click(fold);
    await waitFor(() => expect(api.updateSpace).toHaveBeenCalledWith({ task: TASK }));
    const done = await screen.findByTestId('gateway-fold-result');
    expect(done.textContent).toContain(`Folded 1 batch of ${TASK}: a new proposal is ready; nothing was applied.`);
    fireEvent.click(within(done).getByTestId('open-space-proposal'));
    expect(store.getState().route).toMatchObject({ view: 'space', task: TASK });
  });

  it('has nothing to fold while the recorded batches wait for scores, and says where to score them', async () => {
    const waiting: GatewayViewData = {
      ...data,
      fold: [{ ...data.fold[0]!, batches: [{ ...data.fold[0]!.batches[1]!, scored: 0, state: 'unscored' }], ready: 0, scored: 0 }],
    };
    const { store } = await renderStudio({ view: 'gateway' }, fakeApi({ getGateways: async () => structuredClone(waiting) }));
    const fold = await screen.findByTestId<HTMLButtonElement>('fold-gateway-batches');
    expect(fold.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Score on the Jobs view' }));
    expect(store.getState().route.view).toBe('jobs');
  });
});
