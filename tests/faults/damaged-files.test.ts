// Issue 13 #12: damage from outside (a file cut short by a crash elsewhere, a full disk, a hand edit).
// Reading a damaged project file gives an expected error (PROJECT_FILE_DAMAGED) that names the file,
// says what is wrong and what to do — never "unexpected error (a bug)" or INTERNAL — and the project
// still opens, listing the damage as a warning.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectStore, taskFileName } from '../../electron/engine/store';
import { StudioService } from '../../electron/engine/api';
import { dispatch } from '../../electron/engine/api/dispatch';
import type { Trace } from '../../shared/trace/schema';
import { runCli } from '../cli/io';
import { ExpectedError } from '../../shared/api/errors';

let dir: string;
let project: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lots-damaged-'));
  project = join(dir, 'p');
  const store = ProjectStore.create(project);
  const traces: Trace[] = ['r1', 'r2'].map((id) => ({
    v: 1,
    id,
    task: 'fx',
    tools: [{ name: 'A' }, { name: 'B' }],
    turns: [{ request: `q ${id}`, steps: [{ kind: 'lines', lines: [{ tool: 'A', output: '42' }] }], answer: '42' }],
  }));
  store.addTraces(traces, 'gen');
  store.appendScores(traces.map((t) => ({ key: `run|${t.id}`, run: 'run', trace: t.id, task: 'fx', exposed: ['A', 'B'], scores: { A: 0.5, B: 0.1 } })));
  store.acceptSpace({ task: 'fx', tools: ['A'], pinned: [], banned: [], rule: { kind: 'topk', k: 1 }, note: 'first' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function truncate(path: string, keep = 0.5): void {
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.slice(0, Math.floor(text.length * keep)));
}

const spacesFile = () => join(project, 'spaces', taskFileName('fx'));

describe('a truncated spaces/<task>.json', () => {
  it('`lots export` names the file and what to do (exit 2, no stack trace)', async () => {
    truncate(spacesFile());
    const r = await runCli(['export', '--project', project, '--task', 'fx', '--format', 'names']);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/unexpected error|\n\s+at /);
    expect(r.err).toContain(`${spacesFile()} is damaged (`);
    expect(r.err).toMatch(/Unterminated string|Unexpected end|Expected/);
    expect(r.err).toContain('restore it from a backup, or delete it to start the space history of task "fx" anew');
  });

  it('the store throws PROJECT_FILE_DAMAGED, and refuses to write over the damaged history', () => {
    truncate(spacesFile());
    const before = readFileSync(spacesFile(), 'utf8');
    const store = ProjectStore.open(project);
    expect(() => store.readSpaces('fx')).toThrow(ExpectedError);
    try {
      store.acceptSpace({ task: 'fx', tools: ['A', 'B'], pinned: [], banned: [], rule: { kind: 'manual' }, note: 'second' });
      expect.unreachable();
    } catch (e) {
      expect((e as ExpectedError).code).toBe('PROJECT_FILE_DAMAGED');
    }
    expect(readFileSync(spacesFile(), 'utf8')).toBe(before);
  });

  it('the web API: the project opens with a warning naming the file; the Spaces view gets PROJECT_FILE_DAMAGED', async () => {
    truncate(spacesFile());
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-config-')) });
    const opened = await dispatch(service, 'openProject', { dir: project });
    expect(opened.ok).toBe(true);
    const summary = (opened as { ok: true; value: { warnings: string[] } }).value;
    expect(summary.warnings.some((w) => w.startsWith(`${spacesFile()} is damaged`))).toBe(true);
    const spaces = await dispatch(service, 'getSpaces', { task: 'fx' });
    expect(spaces).toMatchObject({ ok: false, error: { code: 'PROJECT_FILE_DAMAGED' } });
    expect((spaces as { ok: false; error: { message: string } }).error.message).toContain(spacesFile());
  });

  it('an empty file and a file of the wrong shape are damaged too', () => {
    writeFileSync(spacesFile(), '');
    expect(() => ProjectStore.open(project).readSpaces('fx')).toThrow(/is damaged \(the file is empty\)/);
    writeFileSync(spacesFile(), JSON.stringify({ task: 'fx', versions: [{ nope: 1 }] }));
    expect(() => ProjectStore.open(project).readSpaces('fx')).toThrow(/is damaged \(not what LOTS Studio wrote: versions\[0\]/);
  });
});

describe('other damaged project files name themselves', () => {
  it('sweeps, faithfulness checks, routes and job states', () => {
    const store = ProjectStore.open(project);
    const files: Array<[string, () => unknown, RegExp]> = [
      [join(project, 'sweeps', taskFileName('fx')), () => store.readSweep('fx'), /run the budget sweep of task "fx" again/],
      [join(project, 'faithfulness', taskFileName('fx')), () => store.readFaithfulness('fx'), /run the faithfulness check of task "fx" again/],
      [join(project, 'routes.json'), () => store.readRoutes(), /run `lots route` again/],
      [join(project, 'jobs', 'score-1.json'), () => store.readJob('score-1'), /the job cannot be resumed then/],
    ];
    for (const [path, read, remedy] of files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, '{"task": "fx", "poi');
      let error: unknown;
      try {
        read();
      } catch (e) {
        error = e;
      }
      expect((error as ExpectedError).code).toBe('PROJECT_FILE_DAMAGED');
      expect((error as Error).message).toContain(`${path} is damaged (`);
      expect((error as Error).message).toMatch(remedy);
    }
  });
});
