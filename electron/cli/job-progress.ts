// Job progress on a terminal: a one-line bar redrawn in place, or plain periodic lines when stdout is
// not a terminal (logs, CI). Shared by the commands that run a job in a worker (score, faithfulness).
import type { CliIO } from './command';
import type { JobOutcome } from '../engine/jobs/handle';
import { startJob } from '../engine/jobs/process';
import type { JobProgress } from '../engine/jobs/protocol';
import type { QueuedRequest } from '../engine/jobs/queue';
import { errorFromReport } from '../../shared/api/errors';

/** A one-line bar redrawn in place on a terminal; elsewhere a plain line every 5 s or 10%. */
export function progressPrinter(io: CliIO, unit: string): { update(p: JobProgress): void; note(message: string): void; finish(p?: JobProgress): void } {
  let last: JobProgress | undefined;
  let lastPrinted = 0;
  let lastFraction = -1;
  let drawn = false;
  const line = (p: JobProgress): string => progressLine(p, unit);
  return {
    update(p) {
      last = p;
      if (io.isTTY) {
        process.stdout.write(`\r${line(p)}\x1b[K`);
        drawn = true;
        return;
      }
      const fraction = p.total ? p.done / p.total : 0;
      if (Date.now() - lastPrinted > 5000 || fraction - lastFraction >= 0.1 || p.done === p.total) {
        if (p.done === p.total && lastFraction === 1) return;
        lastPrinted = Date.now();
        lastFraction = fraction;
        io.out(line(p));
      }
    },
    note(message) {
      if (drawn) process.stdout.write('\n');
      drawn = false;
      io.out(message);
    },
    finish(p) {
      if (io.isTTY && (p ?? last)) process.stdout.write(`\r${line((p ?? last)!)}\x1b[K\n`);
    },
  };
}

/**
 * The bar's text: done/total units, and inside the traces in flight their sequences done of their plans
 * (the bar moves with them: a long multi-turn trace takes minutes), the token rate and the ETA.
 */
export function progressLine(p: JobProgress, unit: string): string {
  const f = p.inFlight;
  const partial = f && f.sequences > 0 ? (f.traces * f.sequencesDone) / f.sequences : 0;
  const fraction = p.total ? Math.min(1, (p.done + partial) / p.total) : 0;
  const width = 30;
  const filled = Math.round(fraction * width);
  const inside =
    f && p.done < p.total
      ? ` (${f.traces === 1 ? 'in the trace being scored' : `in the ${f.traces} traces being scored`}: ${f.sequencesDone}/${f.sequences} sequences)`
      : '';
  const rate = p.tokensPerSecond ? ` ${Math.round(p.tokensPerSecond)} tok/s` : '';
  const eta = p.etaSeconds !== undefined && p.done < p.total ? ` ETA ${formatDuration(p.etaSeconds)}` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} ${unit}${inside}${rate}${eta}`;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Run a job in its worker with a progress bar; the first Ctrl-C stops after the work in flight, the second
 * at once. A failed job becomes an expected error (its code and message); done/cancelled are returned.
 */
export async function followScoreJob(request: QueuedRequest, io: CliIO, unit: string, failure: string): Promise<JobOutcome> {
  const job = startJob(request, { stdio: 'inherit' });
  const bar = progressPrinter(io, unit);
  job.on('event', (event) => {
    if (event.type === 'progress') bar.update(event.progress);
    if (event.type === 'status' && event.message) bar.note(event.message);
  });
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts === 1) {
      bar.note(`stopping after the ${unit} in flight (Ctrl-C again to stop now)…`);
      job.cancel();
    } else job.kill();
  };
  process.on('SIGINT', onSigint);
  try {
    const outcome = await job.outcome;
    bar.finish(outcome.progress);
    if (outcome.status === 'failed') throw errorFromReport(outcome.error ?? { code: 'INTERNAL', message: failure });
    return outcome;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
