// The Studio's score job on the saved scoring server (usecases/score.ts studioScoreJobSpec, the API's
// startScoring) is the job `lots score --backend … --endpoint …` builds for the same server: the same
// spec from scoreJobSpec. Only the Studio refuses a key variable it may not send, and says where to set
// a server when none is saved.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../../electron/cli/args';
import { command as scoreCommand, scoreRequest } from '../../../electron/cli/commands/score';
import { ProjectStore } from '../../../electron/engine/store';
import { scoreJobSpec, studioScoreJobSpec } from '../../../electron/engine/usecases/score';
import type { ScoringServerSettings } from '../../../shared/api/model-types';

const dir = mkdtempSync(join(tmpdir(), 'lots-score-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('studioScoreJobSpec', () => {
  const store = ProjectStore.create(join(dir, 'p'));
  store.addTraces([{ v: 1, id: 't1', tools: [], turns: [{ request: 'q', steps: [], answer: '1' }] }], 'test');
  const model = join(dir, 'm.gguf');
  writeFileSync(model, 'GGUF');
  const saved: ScoringServerSettings = {
    backend: 'llama-server',
    endpoints: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
    apiKeyEnv: 'LOTS_SCORING_KEY_A',
    servedModel: 'qwen',
  };

  it('builds the job lots score builds for the same server, and a local job without one', () => {
    const argv = ['--project', store.dir, '--model', model, '--backend', 'llama-server', '--endpoint', '127.0.0.1:8080', '--endpoint', '127.0.0.1:8081'];
    const cli = scoreRequest(parseArgs([...argv, '--api-key-env', 'LOTS_SCORING_KEY_A', '--served-model', 'qwen'], scoreCommand.flags));
    const studio = studioScoreJobSpec(store, { model, backend: 'server' }, () => saved);
    expect(studio).toEqual(scoreJobSpec(store, cli.request));
    expect(studio.remote).toEqual({ backend: 'llama-server', endpoints: saved.endpoints, apiKeyEnv: 'LOTS_SCORING_KEY_A', servedModel: 'qwen' });
    const local = scoreRequest(parseArgs(['--project', store.dir, '--model', model], scoreCommand.flags));
    expect(studioScoreJobSpec(store, { model, backend: 'local' }, () => saved)).toEqual(scoreJobSpec(store, local.request));
    expect(studioScoreJobSpec(store, { model }, () => saved)).not.toHaveProperty('remote');
  });

  it('refuses no saved server, a key variable not allowed, and checks the project and model before the server', () => {
    expect(() => studioScoreJobSpec(store, { model, backend: 'server' }, () => null)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('no scoring server is set: enter its URL on the Models view') }),
    );
    const home = { ...saved, apiKeyEnv: 'HOME' };
    expect(() => studioScoreJobSpec(store, { model, backend: 'server' }, () => home)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(studioScoreJobSpec(store, { model, backend: 'server' }, () => home, ['HOME']).remote).toMatchObject({ apiKeyEnv: 'HOME' });
    const empty = ProjectStore.create(join(dir, 'empty'));
    expect(() => studioScoreJobSpec(empty, { model, backend: 'server' }, () => null)).toThrow('has no traces to score');
  });
});
