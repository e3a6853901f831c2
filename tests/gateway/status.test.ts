// A gateway's status record (gateways/<session>.json) from its writer to the Gateway view's data: written
// and read back through the store, refused when damaged, read as lost when its process is gone or its
// heartbeat stale (and stopped when it said so), never carrying a credential; and the view's batches,
// each where it stands for `lots update` (folded, ready, waiting for scores, an MCP audit, no task).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayStats } from '../../shared/gateway/stats';
import { GATEWAY_STALE_BEATS, gatewayLiveness, publicUpstream, type GatewayStatus } from '../../shared/project/gateways';
import { ProjectStore } from '../../electron/engine/store';
import { ProjectIndex } from '../../electron/engine/read-model/project-index';
import { TraceRecorder } from '../../electron/engine/gateway/recorder';
import { GatewayStatusWriter } from '../../electron/engine/gateway/status';
import { buildGatewayView } from '../../electron/engine/views/gateways';
import { updateSpaces } from '../../electron/engine/usecases/update';
import type { Trace } from '../../shared/trace/schema';
import { tempDir } from '../cli/io';

const tmp = tempDir('lots-gateway-status-');
afterAll(() => tmp.cleanup());
let n = 0;
const newStore = (): ProjectStore => ProjectStore.create(join(tmp.dir, `p${++n}`));

const AT = '2026-12-01T10:00:00.000Z';
function record(over: Partial<GatewayStatus> = {}): GatewayStatus {
  return {
    v: 1,
    id: '20261201T100000-abc123',
    kind: 'openai',
    transport: 'http',
    url: 'http://127.0.0.1:8808/v1',
    upstream: 'http://127.0.0.1:8080',
    pid: process.pid,
    hostname: hostname(),
    startedAt: AT,
    updatedAt: AT,
    heartbeatMs: 5000,
    state: 'running',
    refused: 1,
    bySource: { header: 3, metadata: 0, router: 0, flag: 0, none: 1 },
    tasks: [
      { task: 'fx', requests: 3, noSpace: 0, toolsHidden: 6, tokensSaved: 420, promptTokens: 900, failed: 0, spaceVersion: 0 },
      { task: null, requests: 1, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 310, failed: 0 },
    ],
    batch: { source: 'gateway-openai-20261201T100000-abc123', recorded: 4, queued: 1, open: 0, committed: 3, files: ['0002.jsonl'] },
    ...over,
  };
}

describe('the status record', () => {
  it('is written atomically and read back through the store, newest first', () => {
    const store = newStore();
    expect(store.listGateways()).toEqual([]);
    store.writeGateway(record());
    store.writeGateway(record({ id: 'later', startedAt: '2026-12-01T11:00:00.000Z' }));
    store.writeGateway(record({ refused: 7 })); // a rewrite of the first
    expect(readdirSync(join(store.dir, 'gateways')).sort()).toEqual(['20261201T100000-abc123.json', 'later.json']);
    expect(store.listGateways().map((r) => [r.id, r.refused])).toEqual([
      ['later', 1],
      ['20261201T100000-abc123', 7],
    ]);
    expect(() => store.writeGateway({ ...record(), id: '../escape' })).toThrow();
  });

  it('a damaged record is a warning naming the file, and the others are still read', () => {
    const store = newStore();
    store.writeGateway(record());
    writeFileSync(join(store.dir, 'gateways', 'torn.json'), '{"v":1,"id":"torn","kind":"op');
    writeFileSync(join(store.dir, 'gateways', 'other.json'), JSON.stringify({ ...record(), id: 'other', kind: 'smtp' }));
    expect(store.listGateways().map((r) => r.id)).toEqual(['20261201T100000-abc123']);
    expect(store.warnings.map((w) => w.file.split('/').pop())).toEqual(['other.json', 'torn.json']);
    expect(store.warnings[0]!.message).toMatch(/unreadable gateway status \(.*kind/);
  });

  it('is running while beating, lost when its process is gone or its heartbeat stale, stopped when it said so', () => {
    const r = record();
    const at = (ms: number) => new Date(Date.parse(AT) + ms);
    expect(gatewayLiveness(r, at(1000), true)).toBe('running');
    expect(gatewayLiveness(r, at(5000 * GATEWAY_STALE_BEATS), undefined)).toBe('running');
    expect(gatewayLiveness(r, at(5000 * GATEWAY_STALE_BEATS + 1), undefined)).toBe('lost'); // another machine: only the heartbeat tells
    expect(gatewayLiveness(r, at(1000), false)).toBe('lost'); // killed: the pid is gone
    expect(gatewayLiveness(record({ updatedAt: 'not a date' }), at(0), true)).toBe('lost');
    expect(gatewayLiveness(record({ state: 'stopped', stoppedAt: AT }), at(10 ** 9), false)).toBe('stopped');
    expect(gatewayLiveness(record({ state: 'stopping' }), at(1000), true)).toBe('running');
  });

  it('shows an upstream without its credentials', () => {
    expect(publicUpstream('https://user:secret@api.example.com/v1?key=abc#x')).toBe('https://api.example.com/v1');
    expect(publicUpstream('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });
});

describe("the gateway's writer", () => {
  it('writes what the gateway counts, on start, on a beat and when stopped; no beats after that', async () => {
    const store = newStore();
    const stats = new GatewayStats();
    const recorder = new TraceRecorder(store, { source: 'gateway-openai-s1' });
    let clock = Date.parse(AT);
    const writer = new GatewayStatusWriter(
      store,
      { id: 's1', kind: 'openai', transport: 'http', url: 'http://127.0.0.1:9/v1', upstream: 'http://up' },
      { stats, recorder, open: () => 2 },
      { heartbeatMs: 20, now: () => new Date(clock) },
    );
    writer.start();
    expect(store.listGateways()).toMatchObject([{ id: 's1', state: 'running', tasks: [], batch: { recorded: 0, committed: 0, open: 2 } }]);
    stats.served({ task: 'fx', source: 'header', hasSpace: true, hidden: 2, tokensSaved: 150, promptTokens: 300, spaceVersion: 1 });
    stats.served({ source: 'none', hasSpace: false, hidden: 0, tokensSaved: 0 });
    stats.refused++;
    clock += 1000;
    await new Promise((r) => setTimeout(r, 80)); // a few heartbeats
    const [beat] = store.listGateways();
    expect(beat!.updatedAt).toBe(new Date(clock).toISOString());
    expect(beat!.tasks).toEqual([
      { task: 'fx', requests: 1, noSpace: 0, toolsHidden: 2, tokensSaved: 150, promptTokens: 300, failed: 0, spaceVersion: 1 },
      { task: null, requests: 1, noSpace: 0, toolsHidden: 0, tokensSaved: 0, promptTokens: 0, failed: 0 },
    ]);
    expect(beat!.refused).toBe(1);
    expect(beat!.bySource).toMatchObject({ header: 1, none: 1 });
    writer.stopped();
    await recorder.close();
    const stopped = JSON.parse(readFileSync(join(store.dir, 'gateways', 's1.json'), 'utf8')) as GatewayStatus;
    expect(stopped).toMatchObject({ state: 'stopped', stoppedAt: new Date(clock).toISOString() });
    clock += 60_000;
    await new Promise((r) => setTimeout(r, 60));
    expect(store.listGateways()[0]!.updatedAt).toBe(stopped.updatedAt); // no beat after the stop
  });

  it('a write that fails is said once and serving goes on', () => {
    const store = newStore();
    writeFileSync(join(store.dir, 'gateways'), 'not a folder');
    const lines: string[] = [];
    const writer = new GatewayStatusWriter(
      store,
      { id: 's2', kind: 'mcp', transport: 'stdio', url: 'stdio', upstream: 'npx' },
      { stats: new GatewayStats(), recorder: new TraceRecorder(store, { source: 's' }) },
      { log: (l) => void lines.push(l) },
    );
    writer.beat();
    writer.beat();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/could not write its status into the project .*serving goes on/);
  });
});

const tools = ['Calculator', 'DocRetrieve', 'ExchangeRate'].map((name) => ({ name, description: `the ${name} tool` }));
const trace = (id: string, task?: string, answer = '42'): Trace => ({
  v: 1,
  id,
  ...(task !== undefined ? { task } : {}),
  tools,
  turns: [{ request: answer ? `request ${id}` : '', steps: [], answer }],
});
const row = (trace: string) => ({
  key: `import:prod|${trace}`,
  run: 'import:prod',
  trace,
  task: 'fx',
  exposed: tools.map((t) => t.name),
  scores: { Calculator: 0.1, DocRetrieve: 0.0, ExchangeRate: 0.7 },
});

describe('the Gateway view', () => {
  it("shows each gateway's liveness and totals, and where each recorded batch stands for lots update", () => {
    const store = newStore();
    store.addTraces([trace('seed-1', 'fx'), trace('seed-2', 'fx')], 'seed.jsonl'); // 0001: not a gateway batch
    store.addTraces([trace('g1', 'fx'), trace('g2', 'fx')], 'gateway-openai-a'); // 0002: scored, then folded
    store.addTraces([trace('g3', 'fx'), trace('g4')], 'gateway-openai-a'); // 0003: fx scored (ready) + one without a task
    store.addTraces([trace('g5', 'fx')], 'gateway-openai-b'); // 0004: not scored
    store.addTraces([trace('m1', 'files', '')], 'gateway-mcp-c'); // 0005: MCP calls
    store.appendScores([row('seed-1'), row('seed-2'), row('g1'), row('g2')]);
    store.acceptSpace({ task: 'fx', tools: ['ExchangeRate'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: 'v0' });
    updateSpaces(store, new ProjectIndex(store), { task: 'fx' });
    store.appendScores([row('g3')]);
    const now = new Date(Date.parse(AT) + 3000);
    store.writeGateway(record({ id: 'a', batch: { ...record().batch, files: ['0002.jsonl', '0003.jsonl'] } }));
    store.writeGateway(record({ id: 'b', pid: 999_999, startedAt: '2026-12-01T09:00:00.000Z', batch: { ...record().batch, files: ['0004.jsonl'] } }));
    store.writeGateway(
      record({
        id: 'c',
        kind: 'mcp',
        transport: 'stdio',
        url: 'stdio',
        task: 'files',
        state: 'stopped',
        stoppedAt: AT,
        startedAt: '2026-12-01T11:00:00.000Z',
        batch: { ...record().batch, files: ['0005.jsonl'] },
      }),
    );
    const view = buildGatewayView(store, new ProjectIndex(store), { now, alive: (r) => r.pid === process.pid });
    expect(view.gateways.map((g) => [g.id, g.status])).toEqual([
      ['a', 'running'],
      ['b', 'lost'],
      ['c', 'stopped'],
    ]);
    expect(view.gateways[0]!.totals).toEqual({ requests: 4, noSpace: 0, toolsHidden: 6, tokensSaved: 420, promptTokens: 1210, failed: 0 });
    expect(view.gateways[2]!.task).toBe('files');
    const fold = Object.fromEntries(view.fold.map((t) => [t.task, t]));
    expect(Object.keys(fold)).toEqual(['(unrouted)', 'files', 'fx']);
    expect(fold.fx!.batches.map((b) => [b.file, b.traces, b.scored, b.state])).toEqual([
      ['0002.jsonl', 2, 2, 'folded'],
      ['0003.jsonl', 1, 1, 'ready'],
      ['0004.jsonl', 1, 0, 'unscored'],
    ]);
    expect(fold.fx).toMatchObject({ traces: 4, scored: 3, ready: 1, hasScores: true, approvedVersion: 0, lastFold: 2 });
    expect(fold.files!.batches.map((b) => b.state)).toEqual(['audit']);
    expect(fold.files).toMatchObject({ hasScores: false, ready: 0, approvedVersion: null, lastFold: null });
    expect(fold['(unrouted)']!.batches.map((b) => b.state)).toEqual(['unrouted']);
  });

  it('knows no gateway in a project none served', () => {
    const store = newStore();
    expect(buildGatewayView(store, new ProjectIndex(store))).toMatchObject({ gateways: [], fold: [] });
  });
});
