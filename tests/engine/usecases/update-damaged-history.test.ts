// Issue 37 item 20: `lots update` on a damaged update history. A history that names a batch twice, or a
// batch the project does not hold (renamed), used to be folded on silently (the batch counted twice in the
// running scores); it is damaged history now, said like the other damaged files, with the file and what to
// do, and nothing is written. A folder where the history file should be is said with its path and advice,
// not a bare EISDIR.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { taskFileName } from '../../../electron/engine/store/project-file';
import type { Trace } from '../../../shared/trace/schema';
import { jsonl, runCli, tempDir } from '../../cli/io';

const tmp = tempDir('lots-update-damaged-');
afterAll(() => tmp.cleanup());

const tools = ['Calculator', 'ExchangeRate', 'WebSearch'].map((name) => ({ name, description: `the ${name} tool` }));
const trace = (id: string): Trace => ({ v: 1, id, task: 'fx', tools, turns: [{ request: `request ${id}`, steps: [], answer: '42' }] });
const row = (id: string, scores: Record<string, number>) => ({ trace: id, task: 'fx', exposed: tools.map((t) => t.name), scores });

let project: string;
let historyFile: string;
let good: string;

beforeAll(async () => {
  project = join(tmp.dir, 'proj');
  ProjectStore.create(project);
  for (const [name, ids] of [
    ['monday.jsonl', ['m1', 'm2']],
    ['tuesday.jsonl', ['t1']],
  ] as const) {
    expect((await runCli(['import', tmp.file(name, jsonl(ids.map(trace))), '--project', project])).code).toBe(0);
  }
  const rows = [
    row('m1', { Calculator: 0.4, ExchangeRate: 0.8, WebSearch: 0.1 }),
    row('m2', { Calculator: 0.2, ExchangeRate: 0.6, WebSearch: 0 }),
    row('t1', { Calculator: 0.1, ExchangeRate: 0.9, WebSearch: 0.3 }),
  ];
  expect((await runCli(['scores', 'import', tmp.file('scores.jsonl', jsonl(rows)), '--project', project, '--run', 'import:prod'])).code).toBe(0);
  const first = await runCli(['update', '--project', project, '--k', '2']);
  expect(first.code, first.err).toBe(0);
  historyFile = join(project, 'updates', taskFileName('fx'));
  good = readFileSync(historyFile, 'utf8');
  expect(JSON.parse(good).batches.map((b: { source: string }) => b.source)).toEqual(['0001.jsonl', '0002.jsonl']);
});

function damage(edit: (batches: Array<{ source: string }>) => Array<{ source: string }>): string {
  const history = JSON.parse(good) as { batches: Array<{ source: string }> };
  const text = JSON.stringify({ ...history, batches: edit(history.batches) });
  writeFileSync(historyFile, text);
  return text;
}

describe('lots update on damaged history', () => {
  it('the same batch twice: said, with the file and --refold, nothing written', async () => {
    const text = damage((b) => [b[0]!, b[0]!]);
    const r = await runCli(['update', '--project', project]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${historyFile} is damaged (batch 2 names 0001.jsonl a second time)`);
    expect(r.err).toContain('--refold');
    expect(readFileSync(historyFile, 'utf8')).toBe(text);
  });

  it('a batch the project does not hold (renamed): said, nothing written', async () => {
    const text = damage((b) => [b[0]!, { ...b[1]!, source: '0009.jsonl' }]);
    const r = await runCli(['update', '--project', project]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${historyFile} is damaged (batch 2 names 0009.jsonl, which is not a batch of the project (renamed or removed))`);
    expect(readFileSync(historyFile, 'utf8')).toBe(text);
  });

  it('--refold folds the batches again from the scores, each once', async () => {
    damage((b) => [b[0]!, b[0]!]);
    const r = await runCli(['update', '--project', project, '--refold']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(historyFile, 'utf8')).batches.map((b: { source: string }) => b.source)).toEqual(['0001.jsonl', '0002.jsonl']);
  });

  it('a folder where the history file should be: its path and what to do, not EISDIR', async () => {
    rmSync(historyFile);
    mkdirSync(historyFile);
    const r = await runCli(['update', '--project', project]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${historyFile} is a folder where LOTS Studio keeps a file: move that folder out of the project`);
    expect(r.err).not.toMatch(/EISDIR|unexpected error/);
  });
});
