// Issue 38 item 6: traces carrying `metadata.task` used to land in "(unrouted)" for a UI-only user, who
// had no way to give --task-field. The import now guesses the field (summary hint, report field) and the
// API's importTraces takes taskField, as `lots import --task-field` does.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StudioService } from '../../../electron/engine/api';
import { ProjectStore } from '../../../electron/engine/store';
import { runCli } from '../../cli/io';
import { tempDir } from './helpers';

const tmp = tempDir('lots-task-field-');
afterAll(() => tmp.cleanup());

// Real LLaMA-Factory records, each given the metadata a gateway or SDK would add.
const REAL = join(__dirname, '..', '..', 'fixtures', 'real', 'llama-factory', 'reason_tool_use_demo_15.jsonl');
const lines = readFileSync(REAL, 'utf8').trim().split('\n').slice(0, 4);
const labels = ['lookup', 'lookup', 'math', 'math'];
const file = join(tmp.dir, 'tagged.jsonl');
writeFileSync(file, lines.map((l, i) => JSON.stringify({ ...(JSON.parse(l) as object), metadata: { task: labels[i] } })).join('\n') + '\n');

describe('a task label in the records', () => {
  it('is guessed, and the summary says how to use it', async () => {
    const r = await runCli(['import', file, '--project', join(tmp.dir, 'p1')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/4 trace\(s\) without a task/);
    // Not "import again": in this project a second import with the field would add the traces a second time.
    expect(r.out).toContain(
      'hint: the records carry a task label at metadata.task: give --task-field metadata.task when importing them into a project that does not hold them yet',
    );
  });

  it('is used when the API import is given taskField (the UI), and offered when it is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lots-task-field-p-'));
    ProjectStore.create(dir, 'tf');
    const service = new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
    service.setProject(ProjectStore.open(dir));
    const plain = await service.importTraces({ paths: [file] });
    expect(plain.files[0]).toMatchObject({ added: 4, unlabelled: 4, taskFieldGuess: 'metadata.task' });
    const dir2 = mkdtempSync(join(tmpdir(), 'lots-task-field-p2-'));
    ProjectStore.create(dir2, 'tf2');
    service.setProject(ProjectStore.open(dir2));
    const labelled = await service.importTraces({ paths: [file], taskField: 'metadata.task' });
    expect(labelled.files[0]!.unlabelled).toBeUndefined();
    expect([...ProjectStore.open(dir2).traceInfos()].map((t) => t.task).sort()).toEqual(['lookup', 'lookup', 'math', 'math']);
  });
});
