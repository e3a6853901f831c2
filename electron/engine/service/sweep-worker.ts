// Entry of a sweep job's worker process (child_process.fork, or Electron's utilityProcess: see
// ../workers): waits for `start`, runs the sweep, forwards its events, cancels on request (the
// points measured so far are stored), exits when done or orphaned.
import { requireWorkerPort } from '../workers/port';
import { runSweepJob, type SweepJobEvent, type SweepJobSpec } from './sweep-job';

type Command = { type: 'start'; spec: SweepJobSpec } | { type: 'cancel' };

const port = requireWorkerPort('sweep-worker');
const abort = new AbortController();
let started = false;

const send = (event: SweepJobEvent): void => port.send(event);

port.onMessage((raw) => {
  const message = raw as Command;
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
    .finally(() => port.exit(0));
});

port.onParentGone(() => process.exit(0));
process.on('SIGINT', () => undefined);
