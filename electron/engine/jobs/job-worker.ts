// The one entry of the engine's job worker process (child_process.fork, or Electron's utilityProcess:
// see launcher.ts). Waits for `start` with a request (score | faithfulness | sweep | demo), runs it, forwards
// its events, obeys pause / resume / cancel, and exits when the job ends or when its parent goes away
// (a killed `lots score` takes its worker with it; the next run resumes from what was stored).
import { JobControl } from './control';
import { runDemoJob } from './demo-job';
import { toFailure } from './failure';
import { runFaithfulnessJob } from './faithfulness-job';
import { requireWorkerPort } from './port';
import type { JobCommand, JobRequest } from './protocol';
import { runScoreJob } from './score-job';
import { runSweepJob } from './sweep-job';

/** Every job a worker can run; each reports its own outcome (done, cancelled, failed) as events. */
function run(request: JobRequest, control: JobControl, send: (event: unknown) => void): Promise<void> {
  switch (request.kind) {
    case 'score':
      return runScoreJob(request.spec, control, send);
    case 'faithfulness':
      return runFaithfulnessJob(request.spec, control, send);
    case 'sweep':
      return runSweepJob(request.spec, control, send);
    case 'demo':
      return runDemoJob(request.spec, control, send);
  }
}

const port = requireWorkerPort('job-worker');
const control = new JobControl();
let started = false;

port.onMessage((raw) => {
  const message = raw as JobCommand;
  switch (message.type) {
    case 'start':
      if (started) return;
      started = true;
      run(message.request, control, (event) => port.send(event))
        .catch((e: unknown) => port.send({ type: 'failed', error: toFailure(e) }))
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
