// Issue 13 #9: tool names, trace ids and argument keys are anyone's strings, "__proto__" included.
// JSON.parse makes it an ordinary own key; every map keyed by such strings must keep it as one (a tool
// named __proto__ keeps its score), and the canonical form that traces are hashed by must count it (two
// traces that differ only inside a "__proto__" key are different traces, not duplicates).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore, traceHash } from '../../electron/engine/store';
import { StoredScoreSchema, ScoreRowSchema } from '../../shared/project/scores';
import { TaskSpacesSchema } from '../../shared/project/spaces';
import { canonicalJson } from '../../shared/trace/canonical';
import { parsePythonCall, parsePythonLiteral } from '../../shared/importers/python-literal';
import { withoutSecrets } from '../../shared/importers/secrets';
import { aggregateTaskScores } from '../../shared/lots/aggregate';
import { routeUnlabelled } from '../../shared/routing/route';
import { importText } from '../../shared/importers';
import type { Trace } from '../../shared/trace/schema';
import { jsonl, runCli, tempDir } from '../cli/io';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-proto-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function traceWithArgs(id: string, argsJson: string): Trace {
  return JSON.parse(
    `{"v":1,"id":${JSON.stringify(id)},"task":"t","tools":[{"name":"A"}],"turns":[{"request":"q","steps":[{"kind":"call","calls":[{"id":"c1","name":"A","arguments":${argsJson}}]},{"kind":"observation","callId":"c1","name":"A","content":"ok"}],"answer":"y"}]}`,
  ) as Trace;
}

describe('canonical JSON and trace hashes', () => {
  it('keep a "__proto__" key like any other', () => {
    const a = JSON.parse('{"b":1,"__proto__":{"city":"Paris"}}');
    const b = JSON.parse('{"b":1,"__proto__":{"city":"Rome"}}');
    expect(canonicalJson(a)).toBe('{"__proto__":{"city":"Paris"},"b":1}');
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
    expect(traceHash(traceWithArgs('r1', '{"__proto__":{"city":"Paris"}}'))).not.toBe(traceHash(traceWithArgs('r1', '{"__proto__":{"city":"Rome"}}')));
    expect(traceHash(traceWithArgs('r1', '{"__proto__":1}'))).not.toBe(traceHash(traceWithArgs('r1', '{}')));
  });

  it('a trace differing only inside "__proto__" is a conflict in the store, not a duplicate', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    expect(store.addTraces([traceWithArgs('r1', '{"__proto__":{"city":"Paris"}}')], 'a').added).toBe(1);
    const second = store.addTraces([traceWithArgs('r1', '{"__proto__":{"city":"Rome"}}')], 'b');
    expect(second.duplicates).toBe(0);
    expect(second.conflicts).toHaveLength(1);
    // What was stored keeps the key.
    const again = ProjectStore.open(join(dir, 'p'));
    expect(JSON.stringify(again.getTrace('r1')!.turns[0]!.steps[0])).toContain('"__proto__":{"city":"Paris"}');
  });

  it('two imported records without ids that differ only inside "__proto__" get different ids', async () => {
    const record = (city: string) =>
      `{"messages":[{"role":"user","content":"weather?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"__proto__\\":{\\"city\\":\\"${city}\\"}}"}}]},{"role":"tool","tool_call_id":"c1","content":"sunny"},{"role":"assistant","content":"It is sunny."}]}`;
    const result = importText(`${record('Paris')}\n${record('Rome')}\n`, { file: 'x.jsonl' });
    const ids = result.traces.map((t) => t.trace.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('maps keyed by tool names keep a tool named "__proto__"', () => {
  const row = JSON.parse('{"trace":"r1","task":"t","exposed":["__proto__","constructor","A"],"scores":{"__proto__":0.5,"constructor":0.25,"A":0.1}}');

  it('score records parse with it (exchange format and stored records)', () => {
    expect(ScoreRowSchema.parse(row).scores).toEqual(
      Object.fromEntries([
        ['__proto__', 0.5],
        ['constructor', 0.25],
        ['A', 0.1],
      ]),
    );
    expect(Object.keys(ScoreRowSchema.parse(row).scores).sort()).toEqual(['A', '__proto__', 'constructor']);
    const stored = StoredScoreSchema.parse({
      ...row,
      key: 'k',
      run: 'r',
      shared: JSON.parse('{"__proto__":["A"]}'),
      turns: [{ turn: 0, base: -1, removed: JSON.parse('{"__proto__":-2}') }],
    });
    expect(Object.hasOwn(stored.scores, '__proto__')).toBe(true);
    expect(Object.hasOwn(stored.shared!, '__proto__')).toBe(true);
    expect(Object.hasOwn(stored.turns![0]!.removed, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(stored.scores)).toBe(Object.prototype); // kept as a key, not made the prototype
    // A bad value under "__proto__" is reported like any other.
    const bad = ScoreRowSchema.safeParse(JSON.parse('{"trace":"r1","exposed":["__proto__"],"scores":{"__proto__":"high"}}'));
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['scores', '__proto__']);
  });

  it('the store keeps its score across a reopen and the ranking lists it', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    store.appendScores([{ ...row, key: 'k1', run: 'run' }]);
    const reopened = ProjectStore.open(join(dir, 'p'));
    const scores = reopened.listScores()[0]!.scores;
    expect(Object.hasOwn(scores, '__proto__')).toBe(true);
    expect(scores['__proto__']).toBe(0.5);
    const [task] = aggregateTaskScores(reopened.listScores());
    expect(task!.tools.map((t) => [t.tool, t.mean])).toEqual(
      [
        ['A', 0.1],
        ['__proto__', 0.5],
        ['constructor', 0.25],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
  });

  it('`lots scores import` then `lots fit --project` ranks it first', async () => {
    const tmp = tempDir('lots-proto-cli-');
    try {
      const file = tmp.file(
        'scores.jsonl',
        jsonl([row, { ...row, trace: 'r2' }]).replaceAll(
          '"scores":{"A":0.1,"constructor":0.25,"__proto__":0.5}',
          '"scores":{"__proto__":0.5,"constructor":0.25,"A":0.1}',
        ),
      );
      const imported = await runCli(['scores', 'import', file, '--project', join(tmp.dir, 'p')]);
      expect(imported.code).toBe(0);
      const fit = await runCli(['fit', '--project', join(tmp.dir, 'p'), '--json', '--resamples', '0']);
      const ranking = (JSON.parse(fit.out) as { tasks: Record<string, { ranking: { tool: string; mean: number }[] }> }).tasks.t!.ranking;
      expect(ranking[0]).toMatchObject({ tool: '__proto__', mean: 0.5 });
    } finally {
      tmp.cleanup();
    }
  });

  it('accepted spaces keep its running score', () => {
    const parsed = TaskSpacesSchema.parse(
      JSON.parse(
        '{"task":"t","versions":[{"version":0,"task":"t","tools":["__proto__"],"rule":{"kind":"manual"},"note":"n","runningScores":{"__proto__":0.5},"createdAt":"x"}]}',
      ),
    );
    expect(Object.hasOwn(parsed.versions[0]!.runningScores!, '__proto__')).toBe(true);
  });
});

describe('importers keep "__proto__" keys of the data they read', () => {
  it('Python literals and calls (Hermes, BFCL)', () => {
    const lit = parsePythonLiteral("{'__proto__': {'polluted': True}, 'a': 1}");
    expect(lit.ok && Object.hasOwn(lit.value as object, '__proto__')).toBe(true);
    expect(lit.ok && Object.getPrototypeOf(lit.value)).toBe(Object.prototype);
    expect(lit.ok && (lit.value as Record<string, unknown>).polluted).toBeUndefined();
    const call = parsePythonCall('f(__proto__=1, b=2)');
    expect(call && Object.keys(call.arguments)).toEqual(['__proto__', 'b']);
  });

  it('secret-stripping copies', () => {
    const copy = withoutSecrets(JSON.parse('{"__proto__":{"x":1},"api_key":"s"}')) as object;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('routes of traces whose ids are "__proto__" or "constructor"', () => {
    const traces = ['__proto__', 'constructor', 'x'].map((id): Trace => ({
      v: 1,
      id,
      tools: [],
      turns: [{ request: `find flights ${id}`, steps: [], answer: 'a' }],
    }));
    const { routes } = routeUnlabelled(traces, { kind: 'kmeans', k: 1 });
    expect(Object.keys(routes).sort()).toEqual(['__proto__', 'constructor', 'x']);
    const store = ProjectStore.create(join(dir, 'p'));
    store.addTraces(traces.slice(1), 'a');
    // With no route for "constructor" it must stay unrouted (not pick up Object's constructor as its task).
    store.writeRoutes(Object.fromEntries([['x', 'cluster-01']]), 'test');
    const byId = new Map(store.listTraces().map((t) => [t.id, t.task]));
    expect(byId.get('constructor')).toBeUndefined();
    expect(byId.get('x')).toBe('cluster-01');
  });
});
