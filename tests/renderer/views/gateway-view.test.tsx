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
    expect([...row.querySelectorAll('td')].map((td) => td.textContent)).toEqual([TASK, 'v2', '45', '—', '270', '~20,070', '13,380', '1']);
    const noTask = cards[0]!.querySelector('[data-testid="gateway-tasks"] tr[data-task=""]')!;
    expect([...noTask.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['no task', '—', '3', '3', '0', '0', '2,436', '—']);
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
