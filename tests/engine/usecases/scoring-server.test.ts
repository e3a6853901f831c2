// The scoring-server use case (usecases/scoring-server.ts, behind the API's get/save/check/forget
// ScoringServer): each endpoint is checked on its own, and the saved settings' last check exists only
// once every one of their endpoints was checked this session with the same backend, key variable and
// served name. Against ports where nothing listens (refused at once).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StudioService } from '../../../electron/engine/api';
import { ScoringServer } from '../../../electron/engine/usecases/scoring-server';
import { freePort } from '../scoring/remote/llama-server-process';

const dir = mkdtempSync(join(tmpdir(), 'lots-scoring-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ScoringServer', () => {
  it("composes the saved settings' last check from a check of each endpoint with the same settings, and the service answers the same", async () => {
    const [a, b] = [`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`];
    const configDir = join(dir, 'cfg');
    const server = new ScoringServer(configDir);
    const saved = server.save({ backend: 'llama-server', endpoints: [a, b], servedModel: 'qwen' });
    expect(saved.lastCheck).toBeNull();

    const one = await server.check({ backend: 'llama-server', endpoints: [a], servedModel: 'qwen' });
    // Only one endpoint of two checked: the answer is that endpoint's check, the saved settings have none yet.
    expect(one.lastCheck!.endpoints.map((e) => e.endpoint)).toEqual([a]);
    expect(server.state().lastCheck).toBeNull();
    // Another served name is another check: it does not complete the saved settings' check.
    await server.check({ backend: 'llama-server', endpoints: [b], servedModel: 'other' });
    expect(server.state().lastCheck).toBeNull();

    const both = await server.check({ backend: 'llama-server', endpoints: [b], servedModel: 'qwen' });
    expect(both.lastCheck!.endpoints.map((e) => e.endpoint)).toEqual([a, b]);
    expect(both.lastCheck!.endpoints.every((e) => e.error?.code === 'SERVER_UNAVAILABLE')).toBe(true);
    expect(both.lastCheck!.checkedAt).toBe(one.lastCheck!.checkedAt);
    expect(server.state()).toEqual(both);

    // The service is this use case: a new session finds the settings, not this session's checks.
    const service = new StudioService({ transport: 'web', configDir });
    expect(await service.getScoringServer()).toEqual({ ...both, lastCheck: null });
    await expect(service.checkScoringServer({ backend: 'llama-server', endpoints: [a, b] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('a check contacts one endpoint, and 2 were given'),
    });
    expect(server.forget()).toEqual({ settings: null, lastCheck: null, file: join(configDir, 'scoring-server.json') });
    expect((await service.getScoringServer()).settings).toBeNull();
  });

  it('refuses a key variable it may not send unless allowed', () => {
    const input = { backend: 'llama-server' as const, endpoints: ['http://127.0.0.1:9'], apiKeyEnv: 'HOME' };
    expect(() => new ScoringServer(join(dir, 'c2')).save(input)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(new ScoringServer(join(dir, 'c3'), ['HOME']).save(input).settings).toMatchObject({ apiKeyEnv: 'HOME' });
  });
});
