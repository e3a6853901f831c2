// Entry of a sweep job's child process: waits for `start`, runs the sweep, forwards its events,
// cancels on request (the points measured so far are stored), exits when done or orphaned.
import { runSweepJob, type SweepJobEvent, type SweepJobSpec } from './sweep-job';

type Command = { type: 'start'; spec: SweepJobSpec } | { type: 'cancel' };

const abort = new AbortController();
let started = false;

function send(event: SweepJobEvent): void {
  if (process.connected) process.send?.(event);
}

process.on('message', (message: Command) => {
  if (message.type === 'cancel') {
    abort.abort(Object.assign(new Error('the sweep was cancelled'), { code: 'CANCELLED' }));
    return;
  }
  if (message.type !== 'start' || started) return;
  started = true;
  runSweepJob(message.spec, abort.signal, send)
    .catch((e: unknown) => {
      if (abort.signal.aborted) send({ type: 'finished', status: 'cancelled', message: 'cancelled: the budgets measured so far are kept' });
      else {
        const raw = (e as { code?: unknown } | null)?.code;
        const code = typeof raw === 'string' ? raw : 'INTERNAL';
        send({ type: 'failed', error: { code, message: e instanceof Error ? e.message : String(e) } });
      }
    })
    .finally(() => {
      process.disconnect?.();
      process.exit(0);
    });
});

process.on('disconnect', () => process.exit(0));
process.on('SIGINT', () => undefined);
