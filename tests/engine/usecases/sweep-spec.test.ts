// The sweep job's spec as the Studio's "Run sweep" builds it (usecases/sweep.ts, called by api/service.ts):
// the model path resolved, the baselines on unless asked off, the run carried when named, and a missing
// model file refused where it was asked for, before any job starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { sweepJobSpec } from '../../../electron/engine/usecases/sweep';

const dir = mkdtempSync(join(tmpdir(), 'lots-sweep-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sweepJobSpec', () => {
  const store = ProjectStore.create(join(dir, 'p'));
  const model = join(dir, 'm.gguf');
  writeFileSync(model, 'GGUF');

  it('resolves the model, compares with the baselines by default and carries the run when named', () => {
    expect(sweepJobSpec(store, { task: 't', model: relative(process.cwd(), model) })).toEqual({ project: store.dir, task: 't', model, baselines: true });
    expect(sweepJobSpec(store, { task: 't', model, run: 'r', baselines: false })).toEqual({ project: store.dir, task: 't', model, run: 'r', baselines: false });
  });

  it('refuses a model file that does not exist, naming it', () => {
    expect(() => sweepJobSpec(store, { task: 't', model: join(dir, 'missing.gguf') })).toThrow(`model file not found: ${join(dir, 'missing.gguf')}`);
  });
});
