// `lots import` end to end through the CLI entry: summary, rejected records as file:line: reason, exit codes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/io';
import { fixturePath } from '../../shared/importers/helpers';
import { chatRecord, tempDir } from './helpers';

const tmp = tempDir('lots-cli-import-');
afterAll(() => tmp.cleanup());

const lots = (...argv: string[]) => runCli(argv);

function projectTraces(dir: string): Array<{ id: string; task?: string }> {
  return readdirSync(join(dir, 'traces'))
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(dir, 'traces', f), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { id: string; task?: string }),
    );
}

describe('lots import', () => {
  it('imports a clean file (exit 0), says which format and why, and skips duplicates on a second run', async () => {
    const project = join(tmp.dir, 'p1');
    const first = await lots('import', fixturePath('anthropic.jsonl'), '--project', project);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      /format anthropic \(Anthropic Messages API: 2 of the first 2 record\(s\), read to detect the format, match — messages carry tool_use/,
    );
    expect(first.out).toMatch(/traces imported: 2; duplicates skipped: 0; rejected: 0/);
    expect(first.out).toMatch(/observations paired by id: 5, by position: 0, by name and order: 0/);
    expect(first.err).toBe('');
    const again = await lots('import', fixturePath('anthropic.jsonl'), '--project', project);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/traces imported: 0; duplicates skipped: 2; rejected: 0/);
    expect(projectTraces(project)).toHaveLength(2);
  });

  it('imports the good records, prints each rejected one as file:line: reason, and exits 1', async () => {
    const file = join(tmp.dir, 'mixed.jsonl');
    writeFileSync(
      file,
      [
        chatRecord('m1'),
        '{"messages": [',
        chatRecord('m3'),
        JSON.stringify({
          messages: [
            { role: 'user', content: 'q' },
            { role: 'tool', tool_call_id: 'ghost', content: 'x' },
          ],
        }),
      ].join('\n'),
    );
    const r = await lots('import', file, '--project', join(tmp.dir, 'p2'));
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${file}:2: not valid JSON`)),
      expect.stringMatching(new RegExp(`^${file}:4: messages\\[1\\]: tool result refers to call id "ghost"`)),
    ]);
    expect(r.out).toMatch(/traces imported: 2; duplicates skipped: 0; rejected: 2/);
    expect(projectTraces(join(tmp.dir, 'p2')).map((t) => t.id)).toEqual(['m1', 'm3']);
  });

  it('reports task labels found with --task-field, and a conflicting id as a rejected record', async () => {
    const project = join(tmp.dir, 'p3');
    const r = await lots('import', fixturePath('gta/dataset.json'), '--project', project);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/tasks found: 2 — count_arith \(1\), read_arith \(1\)/);
    const labelled = await lots('import', fixturePath('llama-factory.json'), '--project', project, '--task-field', 'task', '--format', 'llama-factory');
    expect(labelled.out).toMatch(/format sharegpt \(given with --format sharegpt\)/);
    expect(labelled.out).toMatch(/tasks found: 2 — time \(1\), weather \(1\)/);
    const conflict = join(tmp.dir, 'conflict.jsonl');
    writeFileSync(conflict, JSON.stringify({ v: 1, id: 'gta-0', turns: [{ request: 'other', answer: 'x' }] }));
    const c = await lots('import', conflict, '--project', project);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(new RegExp(`^${conflict}:1: trace id "gta-0" is already in the project with different content`));
  });

  it('recovers the BFCL menu from the dataset and function docs', async () => {
    const project = join(tmp.dir, 'p4');
    const r = await lots(
      'import',
      fixturePath('bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_base_result.json'),
      '--project',
      project,
      '--bfcl-dataset',
      fixturePath('bfcl/BFCL_v4_multi_turn_base.json'),
      '--bfcl-func-docs',
      fixturePath('bfcl/multi_turn_func_doc'),
    );
    expect(r.code).toBe(1); // one entry failed at inference time
    expect(r.out).toMatch(/observations paired by id: 0, by position: 7/);
    const [t] = projectTraces(project) as Array<{ id: string; tools: Array<{ name: string }> }>;
    expect(t!.tools.map((x) => x.name)).toEqual(['ls', 'pwd', 'cd', 'mv', 'cat', 'wc', 'mean']);
  });

  it('imports several files in one run, and exits 2 when nothing could be imported', async () => {
    const project = join(tmp.dir, 'p5');
    const ok = await lots('import', fixturePath('hermes.jsonl'), fixturePath('phoenix-spans.jsonl'), '--project', project);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/format sharegpt[\s\S]*format openinference/);
    const junk = join(tmp.dir, 'junk.jsonl');
    writeFileSync(junk, '{"a": 1}\n{"b": 2}\n');
    const none = await lots('import', junk, '--project', project);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/could not recognise the format/);
    const broken = join(tmp.dir, 'broken.jsonl');
    writeFileSync(broken, '{"messages": [\nnope\n');
    expect((await lots('import', broken, '--project', project)).code).toBe(2);
  });

  it('treats usage mistakes as exit 2 without a stack trace', async () => {
    const bad = await lots('import', fixturePath('hermes.jsonl'), '--project', join(tmp.dir, 'p6'), '--format', 'csv');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown --format "csv"; use one of auto\|native\|openai/);
    expect((await lots('import', '--project', join(tmp.dir, 'p6'))).err).toMatch(/give at least one trace file/);
    expect((await lots('import', fixturePath('hermes.jsonl'))).err).toMatch(/--project is required/);
    const missing = await lots('import', join(tmp.dir, 'nope.jsonl'), '--project', join(tmp.dir, 'p6'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/nope\.jsonl: no such file/);
    expect(missing.err).not.toMatch(/at .*\.ts:/);
  });

  it('counts tasks over the traces imported: an exact duplicate is a duplicate, not a trace "without a task" (issue 38, item 7)', async () => {
    const real = join(__dirname, '..', '..', 'fixtures', 'real', 'llama-factory', 'reason_tool_use_demo_15.jsonl');
    const lines = readFileSync(real, 'utf8').trim().split('\n').slice(0, 3);
    const file = join(tmp.dir, 'dup.jsonl');
    writeFileSync(file, [...lines, lines[0]].join('\n') + '\n');
    const r = await lots('import', file, '--project', join(tmp.dir, 'p-dup'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/traces imported: 3; duplicates skipped: 1; rejected: 0/);
    expect(r.out).toMatch(/tasks found: 0; 3 trace\(s\) without a task, left for routing/);
  });
});
