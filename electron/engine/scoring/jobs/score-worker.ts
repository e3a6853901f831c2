// Entry of a scoring job's child process (child_process.fork, or Electron's utilityProcess with the
// same message protocol). Waits for `start`, runs the job, forwards its events, obeys pause /
// resume / cancel, and exits when the job ends or when its parent goes away (a killed `lots score`
// takes its worker with it; the next run resumes from the stored scores).
import { JobControl } from './control';
import type { JobCommand, JobEvent } from './protocol';
import { runScoreJob, toFailure } from './score-job';

const control = new JobControl();
let started = false;
const pending = new Set<Promise<void>>();

/** Messages are queued asynchronously: exiting before they are flushed would lose the last ones. */
function send(event: JobEvent): void {
  if (!process.connected || !process.send) return;
  const sent = new Promise<void>((done) => process.send!(event, undefined, undefined, () => done()));
  pending.add(sent);
  void sent.then(() => pending.delete(sent));
}

process.on('message', (message: JobCommand) => {
  switch (message.type) {
    case 'start':
      if (started) return;
      started = true;
      runScoreJob(message.spec, control, send)
        .catch((e) => send({ type: 'failed', error: toFailure(e) }))
        .finally(async () => {
          await Promise.all(pending);
          process.exit(0);
        });
      return;
    case 'pause':
      return control.pause();
    case 'resume':
      return control.resume();
    case 'cancel':
      return control.cancel();
  }
});

process.on('disconnect', () => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group; the parent decides (graceful cancel first).
process.on('SIGINT', () => undefined);
