// A scoring job run in this process, as its worker runs it (job-worker.ts), for the fault suite's kill
// loop: argv = project, model file, job id. Prints each event as one JSON line.
import { runScoreJob } from '../../../electron/engine/jobs/score-job';
import { JobControl } from '../../../electron/engine/jobs/control';

const [project, model, jobId] = process.argv.slice(2) as [string, string, string];
void runScoreJob({ jobId, project, model, intervention: 'line', span: 'answer', gpu: 'cpu', parallel: 2 }, new JobControl(), (event) => {
  process.stdout.write(JSON.stringify(event) + '\n');
}).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
