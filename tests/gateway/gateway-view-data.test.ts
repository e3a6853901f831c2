// The Gateway view's data (electron/engine/views/gateways.ts) from the status records and traces real
// gateways write: the OpenAI gateway in front of a small real upstream on 127.0.0.1 (a request under the
// router's threshold is unrouted; a task served pinned + deferred, whose agent calls the deferred tool,
// shows the space's three states and "called while deferred", first from the gateway's journal and then
// from its committed batch), and the MCP gateway over HTTP whose upstream cannot be started again (its
// failure, never "running").
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAIGateway } from '../../electron/engine/gateway/openai-gateway';
import { ProjectIndex } from '../../electron/engine/read-model/project-index';
import { ProjectStore } from '../../electron/engine/store';
import { buildGatewayView } from '../../electron/engine/views/gateways';
import { tempDir } from '../cli/io';
import { chatRequest, makeProject, openaiTools, post } from './fixture';
import { startTinyUpstream } from './tiny-upstream';
import { runFailedMcpGateway } from './failed-mcp-gateway';

const tmp = tempDir('lots-gateway-view-data-');
afterAll(() => tmp.cleanup());

describe('the OpenAI gateway on the Gateway view', () => {
  it('shows the unrouted requests, the three states served and the deferred tool the agent called', async () => {
    const dir = makeProject(tmp.dir, 'openai');
    const store = ProjectStore.open(dir);
    // v1: two tools pinned, WebSearch deferred, DocRetrieve hidden.
    store.acceptSpace({
      task: 'fx',
      tools: ['ExchangeRate', 'Calculator'],
      deferred: ['WebSearch'],
      pinned: [],
      banned: [],
      rule: { kind: 'topk', k: 2 },
      note: 'WebSearch deferred',
    });
    // The project was routed once (`lots route`): the gateway has a router for requests without a task.
    store.addTraces([{ v: 1, id: 'unlabelled-1', tools: [], turns: [{ request: 'convert 20 EUR to USD', steps: [], answer: 'ok' }] }], 'later.jsonl');
    store.writeRoutes({ 'unlabelled-1': 'fx' }, 'test');
    const upstream = await startTinyUpstream();
    const gateway = await startOpenAIGateway({ store: ProjectStore.open(dir), upstream: upstream.url, routeThreshold: 0.99, statusHeartbeatMs: 60_000 });
    try {
      expect((await post(gateway.url, chatRequest('Write a haiku about the sea.'))).status).toBe(200);
      // The agent calls the deferred tool; its next request carries the call and the result: one trace.
      upstream.replies.push(
        { kind: 'call', name: 'WebSearch', arguments: { query: 'EUR USD rate' }, id: 'call_ws' },
        { kind: 'text', text: '1 EUR = 1.08 USD' },
      );
      const ask = { role: 'user', content: 'convert 100 EUR to USD' };
      expect((await post(gateway.url, chatRequest(ask.content), { 'x-lots-task': 'fx' })).status).toBe(200);
      const call = {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_ws', type: 'function', function: { name: 'WebSearch', arguments: '{"query":"EUR USD rate"}' } }],
      };
      const follow = { model: 'tiny', messages: [ask, call, { role: 'tool', tool_call_id: 'call_ws', content: '1.08' }], tools: openaiTools };
      expect((await post(gateway.url, follow, { 'x-lots-task': 'fx' })).status).toBe(200);
      // What the upstream got: WebSearch demoted (no parameters), DocRetrieve left out.
      const sent = upstream.received.at(-1)!.body.tools as { function: { name: string; parameters?: unknown } }[];
      expect(sent.map((t) => [t.function.name, t.function.parameters !== undefined])).toEqual([
        ['Calculator', true],
        ['ExchangeRate', true],
        ['WebSearch', false],
      ]);
      gateway.status.beat();

      // Before any commit: the calls come from the gateway's journal. The Studio's store and index live on
      // between reads, as the service's do.
      const studio = ProjectStore.open(dir);
      const index = new ProjectIndex(studio);
      const live = buildGatewayView(studio, index);
      const g = live.gateways[0]!;
      expect(g).toMatchObject({ kind: 'openai', status: 'running', failure: null, upstreamFailures: null, upstreamDown: false, passedThrough: 0 });
      expect(g.unrouted).toMatchObject({ count: 1, recent: [{ text: 'Write a haiku about the sea.', nearest: expect.any(String), threshold: 0.99 }] });
      expect(g.unrouted!.recent[0]!.similarity).toBeLessThan(0.99);
      const fx = g.tasks.find((t) => t.task === 'fx')!;
      expect(fx).toMatchObject({ spaceVersion: 1, states: { version: 1, pinned: 2, deferred: 1, hidden: 1 } });
      expect(fx).toMatchObject({ recorded: 1, deferredServed: 1, calledWhileDeferred: [{ tool: 'WebSearch', traces: 1 }] });
      expect(g.calledWhileDeferred).toBe(1);
      expect(g.batch.files).toEqual([]);

      // After the commit: the same, from the committed batch (the journal no longer holds it).
      await gateway.recorder.commit();
      gateway.status.beat();
      const committed = buildGatewayView(studio, index).gateways[0]!;
      expect(committed.batch.files).toHaveLength(1);
      expect(committed.tasks.find((t) => t.task === 'fx')).toMatchObject({ recorded: 1, calledWhileDeferred: [{ tool: 'WebSearch', traces: 1 }] });
      expect(committed.calledWhileDeferred).toBe(1);
    } finally {
      await gateway.close();
      await upstream.close();
    }
    const stopped = buildGatewayView(ProjectStore.open(dir), new ProjectIndex(ProjectStore.open(dir))).gateways[0]!;
    expect(stopped).toMatchObject({ status: 'stopped', failure: null, calledWhileDeferred: 1 });
  }, 60_000);
});

describe('the MCP gateway on the Gateway view', () => {
  it('an upstream that cannot be started again: failed, with the reason, never running', async () => {
    const dir = join(tmp.dir, 'mcp');
    ProjectStore.create(dir);
    await runFailedMcpGateway(dir, tmp.dir);
    const g = buildGatewayView(ProjectStore.open(dir), new ProjectIndex(ProjectStore.open(dir))).gateways[0]!;
    expect(g).toMatchObject({ kind: 'mcp', task: 'files', status: 'stopped', upstreamDown: true, unrouted: null, passedThrough: null });
    expect(g.failure).toMatch(/could not be started again after 1 attempt\(s\)/);
    expect(g.upstreamFailures).toMatchObject({ count: 1, restarts: 0, last: expect.stringMatching(/exited with code 3/) });
  }, 60_000);
});
