// Entry of a scoring job's worker process (child_process.fork, or Electron's utilityProcess: see
// ../../workers). Waits for `start`, runs the job, forwards its events, obeys pause / resume /
// cancel, and exits when the job ends or when its parent goes away (a killed `lots score` takes its
// worker with it; the next run resumes from the stored scores).
import { requireWorkerPort } from '../../workers/port';
import { JobControl } from './control';
import type { JobCommand, JobEvent } from './protocol';
import { runScoreJob, toFailure } from './score-job';

const port = requireWorkerPort('score-worker');
const control = new JobControl();
let started = false;

const send = (event: JobEvent): void => port.send(event);

port.onMessage((raw) => {
  const message = raw as JobCommand;
  switch (message.type) {
    case 'start':
      if (started) return;
      started = true;
      runScoreJob(message.spec, control, send)
        .catch((e) => send({ type: 'failed', error: toFailure(e) }))
        .finally(() => port.exit(0));
      return;
    case 'pause':
      return control.pause();
    case 'resume':
      return control.resume();
    case 'cancel':
      return control.cancel();
  }
});

port.onParentGone(() => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group; the parent decides (graceful cancel first).
process.on('SIGINT', () => undefined);
