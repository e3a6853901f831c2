// The score job's spec as `lots score` and the Studio build it: what the request names is carried, the
// rest takes SCORE_DEFAULTS, and a request on an empty project or a missing model file is refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../../../electron/engine/store';
import { SCORE_DEFAULTS, scoreJobSpec } from '../../../electron/engine/usecases/score';

const dir = mkdtempSync(join(tmpdir(), 'lots-score-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scoreJobSpec', () => {
  it('carries threads and parallel when given, and the defaults otherwise', () => {
    const store = ProjectStore.create(join(dir, 'p'));
    store.addTraces([{ v: 1, id: 't1', tools: [], turns: [{ request: 'q', steps: [], answer: '1' }] }], 'test');
    const model = join(dir, 'm.gguf');
    writeFileSync(model, 'GGUF');
    expect(scoreJobSpec(store, { model, threads: 3, parallel: 2 })).toMatchObject({ model, threads: 3, parallel: 2, gpu: SCORE_DEFAULTS.gpu });
    expect(scoreJobSpec(store, { model })).not.toHaveProperty('threads');
  });

  it('refuses a project with no traces', () => {
    const empty = ProjectStore.create(join(dir, 'empty'));
    expect(() => scoreJobSpec(empty, { model: join(dir, 'm.gguf') })).toThrow('has no traces to score');
  });
});
