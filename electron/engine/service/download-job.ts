// A model download as a job: node-llama-cpp's downloader (resumable, with progress and cancel). It is
// network I/O, not inference, so it runs in the engine's own process.
import { createModelDownloader } from 'node-llama-cpp';
import type { JobInfo } from '../../../shared/api/types';

export interface DownloadHandle {
  info: JobInfo;
  cancel(): void;
}

export function startDownload(id: string, uri: string, dirPath: string, emit: (job: JobInfo) => void): DownloadHandle {
  const now = new Date().toISOString();
  let info: JobInfo = {
    id, kind: 'download', title: `Download ${uri}`, status: 'running', createdAt: now, updatedAt: now, done: 0, total: 0, unit: 'bytes',
    message: 'resolving the model file', canPause: false, canResume: false, canCancel: true,
  };
  const update = (patch: Partial<JobInfo>) => {
    info = { ...info, ...patch, updatedAt: new Date().toISOString() };
    handle.info = info;
    emit(info);
  };
  const abort = new AbortController();
  const started = Date.now();
  const handle: DownloadHandle = { info, cancel: () => abort.abort(Object.assign(new Error('download cancelled'), { code: 'CANCELLED' })) };
  void (async () => {
    try {
      const downloader = await createModelDownloader({
        modelUri: uri,
        dirPath,
        showCliProgress: false,
        deleteTempFileOnCancel: false,
        onProgress: ({ totalSize, downloadedSize }) => {
          const seconds = (Date.now() - started) / 1000;
          const rate = seconds > 0 ? downloadedSize / seconds : undefined;
          update({ done: downloadedSize, total: totalSize, message: 'downloading', ...(rate ? { throughput: rate, etaSeconds: (totalSize - downloadedSize) / rate } : {}) });
        },
      });
      const path = await downloader.download({ signal: abort.signal });
      update({ status: 'done', message: `saved to ${path}`, canCancel: false, etaSeconds: 0, result: { path } });
    } catch (e) {
      if (abort.signal.aborted) update({ status: 'cancelled', message: 'cancelled: start again to resume the partial file', canCancel: false });
      else update({ status: 'failed', canCancel: false, error: { code: 'DOWNLOAD_FAILED', message: (e as Error).message, hint: 'Check the network and the model URI (hf:<user>/<repo>:<quant>), then start the download again; it resumes.' } });
    }
  })();
  return handle;
}
