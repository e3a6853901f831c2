import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { ProjectStore } from '../../../electron/engine/store';
import type { Trace } from '../../../shared/trace/schema';
import type { StoredScore } from '../../../shared/project/scores';
import { ExpectedError } from '../../../shared/api/errors';

function trace(id: string, answer = '42'): Trace {
  return {
    v: 1,
    id,
    task: 'fx',
    tools: [{ name: 'A' }, { name: 'B' }],
    turns: [{ request: `q ${id}`, steps: [{ kind: 'lines', lines: [{ tool: 'A', output: '42' }] }], answer }],
  };
}

function score(trace: string, key = `run|${trace}`): StoredScore {
  return { key, run: 'run', trace, task: 'fx', exposed: ['A', 'B'], scores: { A: 0.5 } };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ProjectStore', () => {
  it('creates a project folder and reopens it with its traces', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    const summary = store.addTraces([trace('r1'), trace('r2')], 'a.jsonl');
    expect(summary).toMatchObject({ added: 2, duplicates: 0, conflicts: [] });
    const again = ProjectStore.open(join(dir, 'p'));
    expect(
      again
        .listTraces()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['r1', 'r2']);
    expect(again.listActivity()[0]?.kind).toBe('import');
  });

  it('skips duplicates and rejects a reused id with other content', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    store.addTraces([trace('r1')], 'a');
    const s = store.addTraces([trace('r1'), trace('r1', '7'), trace('r3')], 'b');
    expect(s.added).toBe(1);
    expect(s.duplicates).toBe(1);
    expect(s.conflicts).toHaveLength(1);
    expect(s.conflicts[0]!.message).toMatch(/already in the project with different content/);
    expect(store.getTrace('r1')!.turns[0]!.answer).toBe('42');
  });

  it('never appends a score key twice, also across store instances', () => {
    const a = ProjectStore.create(join(dir, 'p'));
    const b = ProjectStore.open(join(dir, 'p'));
    expect(a.appendScores([score('r1'), score('r1')])).toHaveLength(1);
    expect(b.appendScores([score('r1'), score('r2')]).map((s) => s.trace)).toEqual(['r2']);
    a.refresh();
    expect(a.listScores().map((s) => s.trace)).toEqual(['r1', 'r2']);
    const lines = readFileSync(join(dir, 'p', 'scores.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(2);
  });

  it('ignores a torn last line with a warning, and cuts it before the next append', () => {
    const p = join(dir, 'p');
    const store = ProjectStore.create(p);
    store.appendScores([score('r1')]);
    appendFileSync(join(p, 'scores.jsonl'), '{"key":"run|r2","run":"ru');
    const reopened = ProjectStore.open(p);
    expect(reopened.listScores()).toHaveLength(1);
    expect(reopened.warnings.map((w) => w.message).join()).toMatch(/incomplete last line/);
    reopened.appendScores([score('r3')]);
    const text = readFileSync(join(p, 'scores.jsonl'), 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).trace),
    ).toEqual(['r1', 'r3']);
  });

  it('refuses a project written by a newer version, and a folder that is not a project', () => {
    const p = join(dir, 'p');
    ProjectStore.create(p);
    const info = JSON.parse(readFileSync(join(p, 'project.json'), 'utf8'));
    writeFileSync(join(p, 'project.json'), JSON.stringify({ ...info, version: 99 }));
    expect(() => ProjectStore.open(p)).toThrowError(/newer LOTS Studio.*v99/);
    try {
      ProjectStore.open(join(dir, 'nothing'));
    } catch (e) {
      expect(e).toBeInstanceOf(ExpectedError);
      expect((e as ExpectedError).code).toBe('PROJECT_NOT_FOUND');
    }
  });

  it('keeps every accepted space version', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    store.acceptSpace({ task: 'fx settle/β', tools: ['A'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: 'first' });
    const v1 = store.acceptSpace({ task: 'fx settle/β', tools: ['A', 'B'], pinned: ['B'], banned: [], rule: { kind: 'manual' }, note: 'add B' });
    expect(v1.version).toBe(1);
    expect(
      ProjectStore.open(join(dir, 'p'))
        .readSpaces('fx settle/β')
        .versions.map((v) => v.tools),
    ).toEqual([['A'], ['A', 'B']]);
  });

  it('logs an accepted space with its size in words ("1 tool", "2 tools")', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    store.acceptSpace({ task: 't', tools: ['A'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: '' });
    store.acceptSpace({ task: 't', tools: ['A', 'B'], pinned: [], banned: [], rule: { kind: 'topk', k: 2 }, note: '' });
    expect(store.listActivity().map((a) => a.message)).toEqual(['space v1 of t accepted (2 tools)', 'space v0 of t accepted (1 tool)']);
  });

  it('aborting an import leaves nothing behind', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    const imp = store.beginImport('x');
    imp.add(trace('r1'));
    imp.abort();
    expect(readdirSync(join(dir, 'p', 'traces'))).toEqual([]);
    expect(store.addTraces([trace('r1')], 'y').added).toBe(1); // lock was released
  });

  it('two processes appending at once do not corrupt the score file', async () => {
    const p = join(dir, 'p');
    ProjectStore.create(p);
    const script = join(dir, 'writer.ts');
    writeFileSync(
      script,
      `import { ProjectStore } from ${JSON.stringify(join(process.cwd(), 'electron/engine/store/index.ts'))};
const [p, tag] = process.argv.slice(2);
const store = ProjectStore.open(p);
for (let i = 0; i < 60; i++) store.appendScores([{ key: tag + i, run: 'r', trace: tag + i, exposed: ['A'], scores: { A: i } }, { key: 'shared' + i, run: 'r', trace: 's' + i, exposed: ['A'], scores: { A: 1 } }]);
`,
    );
    const run = (tag: string) =>
      new Promise<number>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, p, tag], { stdio: 'inherit' });
        child.on('exit', (code) => resolve(code ?? 1));
      });
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const lines = readFileSync(join(p, 'scores.jsonl'), 'utf8').trim().split('\n');
    const keys = lines.map((l) => JSON.parse(l).key as string);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(60 * 3);
    expect(existsSync(join(p, '.lock'))).toBe(false);
  });
});
