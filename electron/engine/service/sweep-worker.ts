// Entry of a sweep job's worker process (child_process.fork, or Electron's utilityProcess: see
// ../workers): waits for `start`, runs the sweep, forwards its events, cancels on request (the
// points measured so far are stored), exits when done or orphaned.
import { requireWorkerPort } from '../workers/port';
import { runSweepJob, type SweepJobEvent, type SweepJobSpec } from './sweep-job';
import { ExpectedError, serializeError } from '../../../shared/api/errors';

type Command = { type: 'start'; spec: SweepJobSpec } | { type: 'cancel' };

const port = requireWorkerPort('sweep-worker');
const abort = new AbortController();
let started = false;

const send = (event: SweepJobEvent): void => port.send(event);

port.onMessage((raw) => {
  const message = raw as Command;
  if (message.type === 'cancel') {
    abort.abort(new ExpectedError('CANCELLED', 'the sweep was cancelled'));
    return;
  }
  if (message.type !== 'start' || started) return;
  started = true;
  runSweepJob(message.spec, abort.signal, send)
    .catch((e: unknown) => {
      if (abort.signal.aborted) send({ type: 'finished', status: 'cancelled', message: 'cancelled: the budgets measured so far are kept' });
      else {
        const { code, message } = serializeError(e);
        // A bug: its stack goes to the engine's log (the worker's stderr); the job shows the message.
        if (code === 'INTERNAL') console.error('lots sweep worker: the sweep failed:', e);
        send({ type: 'failed', error: { code, message } });
      }
    })
    .finally(() => port.exit(0));
});

port.onParentGone(() => process.exit(0));
process.on('SIGINT', () => undefined);
