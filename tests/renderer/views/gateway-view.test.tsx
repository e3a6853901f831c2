import '../page'; // first: the DOM the view is drawn in (tests/renderer/page.ts says why not @vitest-environment)
// The Gateway view against the real engine service, on a project whose gateways' status records were
// written by the engine's own writer (GatewayStatusWriter, fed by the gateway's own counters and trace
// recorder, as `lots gateway openai|mcp` runs them): the empty state with the two commands that start a
// gateway; a running gateway's requests per task, tools hidden, tokens saved and the batch it records; a
// killed one shown as stopped since it was last seen; an upstream that is down and a gateway that stopped on
// a failure; the router's unrouted requests, the served space's three states and the deferred tools the
// agent called anyway (read from the traces the recorder committed and journaled); and the fold button
// running the real `lots update` (updateSpace) on the ready batch, whose new proposal is read back from
// the project folder.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GatewayStats } from '../../../shared/gateway/stats';
import type { Trace } from '../../../shared/trace/schema';
import { TraceRecorder } from '../../../electron/engine/gateway/recorder';
import { GatewayStatusWriter, type StatusIdentity } from '../../../electron/engine/gateway/status';
import type { ProjectStore } from '../../../electron/engine/store';
import { makeLineTraces, makeScoreRows } from '../../e2e/fixtures';
import { inMemoryApi } from '../harness';
import { financeProject, renderStudio, serviceFor, TASK, TOOLS } from '../studio';

// The view shows each record's age against the time it read the records ("not seen since 10:35, 30 min
// ago"): the clock is held at NOW (Date only; timers run) so the ages the writers' clocks give are exact.
const NOW = Date.parse('2026-12-01T10:05:00.000Z');
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterAll(() => vi.useRealTimers());
afterEach(cleanup);

const S = 1000;
const MIN = 60 * S;
const [T0, T1, T2, T3] = [TOOLS[0], TOOLS[1], TOOLS[2], TOOLS[3]];
const RUNNING = '20261201T100000-a1b2c3';
const EARLIER = '20261201T090000-0f0f0f';
const KILLED = '20261130T090000-ffffff';

/** A gateway as `lots gateway` runs one: its counters and trace recorder feed the engine's status writer, on a clock the test moves. */
class Gateway {
  readonly stats = new GatewayStats();
  readonly recorder: TraceRecorder;
  readonly writer: GatewayStatusWriter;
  private at: number;

  constructor(
    store: ProjectStore,
    readonly identity: StatusIdentity,
    startedAt: number,
    sources: { open?: () => number; passedThrough?: () => number } = {},
  ) {
    this.at = startedAt;
    this.recorder = new TraceRecorder(store, { source: `gateway-${identity.kind}-${identity.id}` });
    this.writer = new GatewayStatusWriter(store, identity, { stats: this.stats, recorder: this.recorder, ...sources }, { now: () => new Date(this.at) });
  }

  /** Its clock at `at` (ms since the epoch). */
  clock(at: number): this {
    this.at = at;
    return this;
  }

  /** `n` traces of `task` as its recorder is handed them: served with `deferred` deferred; `called[i]` the deferred tool the i-th answer called. */
  record(task: string, n: number, deferred: string[], called: (string | undefined)[] = []): Trace[] {
    const traces = makeLineTraces({ task, requests: n, tools: TOOLS.length, seed: this.recorder.committed + this.recorder.pending + 3 });
    traces.forEach((t, i) => {
      t.id = `${task}-${this.identity.id}-${this.stats.recorded + i}`;
      t.meta = {
        gateway: {
          kind: this.identity.kind,
          session: this.identity.id,
          at: new Date(this.at).toISOString(),
          taskFrom: 'header',
          deferred,
          hidden: [],
          calledWhileDeferred: called[i] !== undefined ? [called[i]] : [],
          spaceVersion: 0,
        },
      };
    });
    for (const t of traces) this.recorder.add(t);
    this.stats.recorded += n;
    return traces;
  }
}

/** The finance project with v0 approved as the gateways serve it: T0, T1 pinned, T2 and T3 deferred, the unscored fifth tool hidden. */
async function servedProject(): Promise<{ dir: string; project: ProjectStore }> {
  const { dir, project } = financeProject();
  await inMemoryApi(serviceFor(dir)).acceptSpace({
    task: TASK,
    tools: [T0, T1],
    deferred: [T2, T3],
    rule: { kind: 'manual' },
    note: 'the space the gateway serves',
  });
  return { dir, project };
}

/**
 * The project served by three OpenAI/MCP gateways, each record written by the engine's writer:
 * - an earlier OpenAI gateway (stopped at 09:50) that committed 20 traces into 0002.jsonl, scored and
 *   folded with `lots update`;
 * - the running OpenAI gateway (started 10:00, last beat 10:04:58): 45 requests of the task (40 by header,
 *   5 by the router), 3 with no task, 2 refused, 1 failed upstream; 46 traces recorded, 40 of them committed
 *   into 0003.jsonl (scored unless `scored: false`: ready to fold), 6 queued, 1 answer waiting for its
 *   continuation; its answers called the deferred T2 in two traces and T3 in one; 2 unrouted requests, 4
 *   requests passed through (not chat);
 * - an MCP gateway of task files that was killed (its last beat at 09:35, 30 min ago) with 7 traces not committed.
 */
async function gatewayProject(options: { scored?: boolean; failed?: boolean } = {}): Promise<string> {
  const { dir, project } = await servedProject();
  const api = inMemoryApi(serviceFor(dir));
  // Every recorder starts before any trace is journaled (a recorder's start commits the journals of gateways that are gone).
  const earlier = new Gateway(
    project,
    { id: EARLIER, kind: 'openai', transport: 'http', url: 'http://127.0.0.1:8807/v1', upstream: 'http://127.0.0.1:8080' },
    NOW - 75 * MIN,
  );
  const running = new Gateway(
    project,
    { id: RUNNING, kind: 'openai', transport: 'http', url: 'http://127.0.0.1:8808/v1', upstream: 'http://127.0.0.1:8080' },
    NOW - 5 * MIN,
    { open: () => 1, passedThrough: () => 4 },
  );
  const killed = new Gateway(
    project,
    { id: KILLED, kind: 'mcp', transport: 'stdio', url: 'stdio', upstream: 'npx server-filesystem', task: 'files' },
    NOW - 60 * MIN,
  );
  for (const g of [earlier, running, killed]) await g.recorder.commit();

  // The earlier gateway: 20 requests, committed when it stopped; scored and folded.
  for (let i = 0; i < 20; i++)
    earlier.stats.served({ task: TASK, source: 'header', hasSpace: true, hidden: 1, tokensSaved: 90, promptTokens: 300, spaceVersion: 0 });
  const first = earlier.record(TASK, 20, [T2, T3]);
  earlier.writer.beat();
  earlier.clock(NOW - 15 * MIN).writer.stopping();
  await earlier.recorder.close();
  earlier.writer.stopped();
  project.appendScores(makeScoreRows(first));
  await api.updateSpace({ task: TASK });

  // The running gateway.
  for (let i = 0; i < 45; i++)
    running.stats.served({
      task: TASK,
      source: i < 40 ? 'header' : 'router',
      hasSpace: true,
      hidden: 6,
      tokensSaved: 446,
      promptTokens: i === 0 ? 312 : 297,
      spaceVersion: 0,
    });
  for (let i = 0; i < 3; i++) running.stats.served({ source: 'none', hasSpace: false, hidden: 0, tokensSaved: 0, promptTokens: 812 });
  running.stats.refused = 2;
  if (options.failed !== false) running.stats.failed(TASK);
  running.clock(NOW - 4 * MIN).stats.unrouted({
    at: new Date(NOW - 4 * MIN).toISOString(),
    text: 'Write a haiku about the sea.',
    nearest: TASK,
    similarity: 0.0412,
    threshold: 0.198,
  });
  running.stats.unrouted({
    at: new Date(NOW - 2 * MIN).toISOString(),
    text: 'What is the capital of Peru?',
    nearest: 'docs',
    similarity: 0.12,
    threshold: 0.198,
  });
  const batch = running.record(TASK, 40, [T2, T3], [T2, undefined, T3, undefined, T2]);
  await running.clock(NOW - 3 * MIN).recorder.commit();
  running.record(TASK, 6, [T2, T3]);
  if (options.scored !== false) project.appendScores(makeScoreRows(batch));
  running.clock(NOW - 2 * S).writer.beat();

  // The killed MCP gateway: its last beat, never a stop.
  for (let i = 0; i < 7; i++) killed.stats.served({ task: 'files', source: 'flag', hasSpace: false, hidden: i < 4 ? 9 : 8, tokensSaved: i < 6 ? 443 : 442 });
  killed.record('files', 7, []);
  killed.clock(NOW - 30 * MIN).writer.beat();
  return dir;
}

/** The gateway record's card, its stats by name. */
function stats(card: HTMLElement, ...names: string[]): (string | null)[] {
  return names.map((name) => card.querySelector(`[data-stat="${name}"] .value`)!.textContent);
}

const cells = (row: Element) => [...row.querySelectorAll('td')].map((td) => td.textContent);

describe('GatewayView', () => {
  it('without a gateway, shows the two commands that start one, for this project', async () => {
    const { dir } = await renderStudio({ view: 'gateway' });
    const empty = within(screen.getByTestId('empty-state'));
    expect(empty.getByText('No gateway has served this project yet')).toBeTruthy();
    const commands = screen.getByTestId('gateway-commands').textContent;
    expect(commands).toContain(`lots gateway openai --project ${dir} --upstream http://127.0.0.1:8080`);
    expect(commands).toContain(`lots gateway mcp --project ${dir} --task T \\\n    -- npx`);
  });

  it("shows a running gateway's requests per task, tools hidden, tokens saved and batch; a killed one as stopped since last seen", async () => {
    await renderStudio({ view: 'gateway' }, { dir: await gatewayProject() });
    const cards = await screen.findAllByTestId('gateway-card');
    expect(cards.map((c) => [c.getAttribute('data-gateway'), c.getAttribute('data-status')])).toEqual([[RUNNING, 'running']]);
    const card = within(cards[0]!);
    expect(card.getByText('running')).toBeTruthy();
    expect(card.getByText('http://127.0.0.1:8808/v1')).toBeTruthy();
    expect(stats(cards[0]!, 'requests', 'passed', 'refused', 'hidden', 'saved', 'prompt')).toEqual(['48', '3', '2', '270', '~20,070', '15,816']);
    const row = cards[0]!.querySelector(`[data-testid="gateway-tasks"] tr[data-task="${TASK}"]`)!;
    expect(cells(row)).toEqual([TASK, 'v0 2 pinned · 2 deferred · 1 hidden', '45', '—', '270', `${T2} ×2, ${T3} ×1`, '~20,070', '13,380', '1']);
    const noTask = cards[0]!.querySelector('[data-testid="gateway-tasks"] tr[data-task=""]')!;
    expect(cells(noTask)).toEqual(['no task', '—', '3', '3', '0', '—', '0', '2,436', '—']);
    expect(card.getByTestId('gateway-batch').textContent).toMatch(
      new RegExp(
        `^Recording gateway-openai-${RUNNING}: 46 traces recorded, 6 waiting for the next commit, 1 answer calling tools .*; 40 committed into 0003\\.jsonl, last at .*\\.$`,
      ),
    );
    // The killed one is among the stopped gateways: not seen since its last heartbeat, its uncommitted traces lost.
    const stopped = screen.getByTestId('gateway-stopped');
    expect([...stopped.querySelectorAll('tbody tr')].map((r) => [r.getAttribute('data-gateway'), r.getAttribute('data-status')])).toEqual([
      [KILLED, 'lost'],
      [EARLIER, 'stopped'],
    ]);
    const killed = stopped.querySelector(`tr[data-status="lost"]`)!;
    expect(cells(killed)).toEqual(['MCP · task files', expect.stringMatching(/^stopped \(not seen since .*, 30 min ago\)$/), '7', '60', '~3,100', '0', '7']);
    expect(killed.querySelector('td.bad')!.textContent).toBe('7');
  });

  it('says what failed: an MCP gateway whose upstream is down is not "running", one that stopped on a failure says why', async () => {
    const { dir, project } = await servedProject();
    // Over --http: its upstream exited, was started again, then was killed and is not serving.
    const down = new Gateway(
      project,
      { id: '20261201T100100-d0d0d0', kind: 'mcp', transport: 'http', url: 'http://127.0.0.1:8809/mcp', upstream: 'npx server-filesystem', task: 'files' },
      NOW - 4 * MIN,
    );
    // Over stdio: its upstream exited, and the gateway ended so that its MCP host restarts it.
    const failed = new Gateway(
      project,
      { id: '20261201T090000-eeeeee', kind: 'mcp', transport: 'stdio', url: 'stdio', upstream: 'npx server-filesystem', task: 'files' },
      NOW - 65 * MIN,
    );
    for (const g of [down, failed]) for (let i = 0; i < 7; i++) g.stats.served({ task: 'files', source: 'flag', hasSpace: false, hidden: 0, tokensSaved: 0 });
    down.writer.beat();
    down.clock(NOW - 60 * S).writer.upstreamFailed('the upstream MCP server (npx server-filesystem) exited with code 1');
    down.clock(NOW - 58 * S).writer.upstreamRestarted();
    down.clock(NOW - 30 * S).writer.upstreamFailed('the upstream MCP server (npx server-filesystem) was killed by SIGKILL');
    down.clock(NOW - 1 * S).writer.beat();
    failed.writer.beat();
    failed.clock(NOW - 3 * MIN).writer.upstreamFailed('the upstream MCP server (npx server-filesystem) exited with code 1');
    failed.writer.stopping();
    await failed.recorder.close();
    failed.writer.stopped(
      'the upstream MCP server (npx server-filesystem) exited with code 1 (last stderr: EACCES /data); the gateway ends so that its MCP host can restart it',
    );
    await renderStudio({ view: 'gateway' }, { dir });
    const card = await screen.findByTestId('gateway-card');
    expect(card.getAttribute('data-gateway')).toBe('20261201T100100-d0d0d0');
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
    expect(alert.textContent).toContain('(3 min ago)');
    expect(alert.textContent).toContain('exited with code 1 (last stderr: EACCES /data)');
    const row = screen.getByTestId('gateway-stopped').querySelector(`tr[data-gateway="20261201T090000-eeeeee"]`)!;
    expect(row.querySelector('.pill.bad')!.textContent).toMatch(/^✕ failed, stopped /);
  });

  it("lists the router's unrouted requests, the served space's three states and the deferred tools called anyway", async () => {
    await renderStudio({ view: 'gateway' }, { dir: await gatewayProject() });
    const card = await screen.findByTestId('gateway-card');
    expect(stats(card, 'unrouted', 'deferred-calls')).toEqual(['2', '3']);
    const row = card.querySelector<HTMLElement>(`[data-testid="gateway-tasks"] tr[data-task="${TASK}"]`)!;
    expect(within(row).getByTestId('gateway-space-states').textContent).toBe('v0 2 pinned · 2 deferred · 1 hidden');
    expect(within(row).getByTestId('gateway-deferred-calls').textContent).toBe(`${T2} ×2, ${T3} ×1`);
    const unrouted = within(card).getByTestId('gateway-unrouted');
    expect(unrouted.querySelector('summary')!.textContent).toMatch(/^2 requests unrouted: .*lots route makes tasks of them/);
    // Newest first, with the nearest task and the similarity under the threshold.
    const rows = [...unrouted.querySelectorAll('tbody tr')].map((tr) => cells(tr).slice(1));
    expect(rows).toEqual([
      ['What is the capital of Peru?', 'docs', '0.120 < 0.198'],
      ['Write a haiku about the sea.', TASK, '0.041 < 0.198'],
    ]);
    expect(within(card).getByTestId('gateway-passed-other').textContent).toMatch(/^4 other requests \(not chat/);
    expect(card.querySelectorAll('[data-testid="gateway-tasks"] th').length).toBe(9);
    // No failed request: no column of failures.
    cleanup();
    await renderStudio({ view: 'gateway' }, { dir: await gatewayProject({ failed: false }) });
    const table = await screen.findByTestId('gateway-tasks');
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).not.toContain('Failed');
    expect(table.querySelectorAll('th').length).toBe(8);
  });

  it('folds the ready batch with the real lots update, whose new proposal is stored in the project, and points to the Space view', async () => {
    const { project, store, calls } = await renderStudio({ view: 'gateway' }, { dir: await gatewayProject() });
    const before = project().readUpdates(TASK)!;
    expect(before.batches.map((b) => b.source)).toEqual(['0001.jsonl', '0002.jsonl']);
    const fold = await screen.findByTestId('fold-gateway-batches');
    expect(fold.textContent).toBe('Fold 1 batch (lots update)');
    const row = screen.getByTestId('gateway-fold-tasks').querySelector(`tr[data-task="${TASK}"]`)!;
    expect([...row.querySelectorAll('[data-state]')].map((c) => [c.getAttribute('data-file'), c.getAttribute('data-state')])).toEqual([
      ['0002.jsonl', 'folded'],
      ['0003.jsonl', 'ready'],
    ]);
    expect(cells(row).slice(2)).toEqual(['60', '60', 'v0', 'batch 2']);
    fireEvent.click(fold);
    const done = await screen.findByTestId('gateway-fold-result');
    expect(calls.get('updateSpace')).toBe(1);
    expect(done.textContent).toContain(`Folded 1 batch of ${TASK}: a new proposal is ready; nothing was applied.`);
    // The fold is in the project: the gateway's batch is batch 3 of the task's updates, with the proposal it led to.
    const after = project().readUpdates(TASK)!;
    expect(after.batches.map((b) => [b.batch, b.source, b.scored])).toEqual([
      [1, '0001.jsonl', 24],
      [2, '0002.jsonl', 20],
      [3, '0003.jsonl', 40],
    ]);
    expect(after.batches[2]!.proposed.length).toBeGreaterThan(0);
    // Nothing applied: v0 is still the only approved version.
    expect(
      project()
        .readSpaces(TASK)
        .versions.map((v) => v.version),
    ).toEqual([0]);
    // The view reads again: the batch is folded now, and nothing is left to fold.
    await waitFor(() =>
      expect(
        [...screen.getByTestId('gateway-fold-tasks').querySelectorAll(`tr[data-task="${TASK}"] [data-state]`)].map((c) => c.getAttribute('data-state')),
      ).toEqual(['folded', 'folded']),
    );
    expect(screen.getByTestId<HTMLButtonElement>('fold-gateway-batches').disabled).toBe(true);
    fireEvent.click(within(done).getByTestId('open-space-proposal'));
    expect(store.getState().route).toMatchObject({ view: 'space', task: TASK });
  });

  it('has nothing to fold while the recorded batches wait for scores, and says where to score them', async () => {
    const { store } = await renderStudio({ view: 'gateway' }, { dir: await gatewayProject({ scored: false }) });
    const fold = await screen.findByTestId<HTMLButtonElement>('fold-gateway-batches');
    const row = screen.getByTestId('gateway-fold-tasks').querySelector(`tr[data-task="${TASK}"]`)!;
    expect([...row.querySelectorAll('[data-state]')].map((c) => c.getAttribute('data-state'))).toEqual(['folded', 'unscored']);
    expect(fold.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Score on the Jobs view' }));
    expect(store.getState().route.view).toBe('jobs');
  });
});
