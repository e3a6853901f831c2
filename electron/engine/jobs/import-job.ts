// An import through the API, shown as a job while it runs: which file, how far, what it waits for (another
// writer holding the project lock: who, since when, up to what limit) — and cancellable from the Jobs list
// or the import button's Cancel, through the same cancelJob as every other job.
// It runs in this process (file I/O, no model) as a local job (local-job.ts): the same handle, statuses and
// cancellation (an AbortSignal) as a job in the worker.
import { newJobId, startingJobInfo } from './ids';
import type { JobInfo } from '../../../shared/api/types';
import type { ReadProgress } from '../import';
import { importCancelled } from '../import/cancelled';
import { startLocalJob, type LocalJob } from './local-job';

export interface ImportJobHandle extends LocalJob {
  /** Starting file `index` (0-based) of the import. */
  file(index: number, name: string): void;
  progress(p: ReadProgress): void;
  /** A status line while the import waits (for the project lock). */
  note(message: string): void;
  finish(status: 'done' | 'cancelled' | 'failed', message: string, error?: { code: string; message: string }): void;
}

/** Progress is announced at most this often (every chunk of a large file would flood the views). */
const PROGRESS_INTERVAL_MS = 250;

export function startImportJob(names: readonly string[], emit: (job: JobInfo) => void, outer?: AbortSignal): ImportJobHandle {
  const id = newJobId('import');
  const title = names.length === 1 ? `Import ${names[0]}` : `Import ${names.length} files`;
  let current = { index: 0, name: names[0] ?? '' };
  let lastProgress = 0;
  const job = startLocalJob(startingJobInfo(id, 'import', title, 'bytes'), emit, {
    cancelReason: () => importCancelled(current.name),
    ...(outer ? { outer } : {}),
  });
  const handle: ImportJobHandle = Object.assign(job, {
    file(index: number, name: string) {
      current = { index, name };
      job.update({ done: 0, total: 0, message: `reading ${where()}` });
    },
    progress(p: ReadProgress) {
      const t = Date.now();
      if (t - lastProgress < PROGRESS_INTERVAL_MS) return;
      lastProgress = t;
      const rate = p.elapsedMs > 500 ? p.bytesRead / (p.elapsedMs / 1000) : undefined;
      job.update({
        done: p.bytesRead,
        total: p.totalBytes,
        message: `reading ${where()}: ${p.traces} traces${p.rejected ? `, ${p.rejected} lines rejected` : ''}`,
        ...(rate ? { throughput: rate, etaSeconds: Math.max(0, (p.totalBytes - p.bytesRead) / rate) } : {}),
      });
    },
    note(message: string) {
      job.update({ message });
    },
    finish(status: 'done' | 'cancelled' | 'failed', message: string, error?: { code: string; message: string }) {
      job.update({ status, message, canCancel: false, etaSeconds: 0, ...(error ? { error } : {}) });
      job.end({ status, progress: { done: job.info.done, total: job.info.total, message }, ...(error ? { error } : {}) });
    },
  });
  function where(): string {
    return names.length > 1 ? `${current.name} (file ${current.index + 1} of ${names.length})` : current.name;
  }
  emit(handle.info);
  return handle;
}
