// The store's job state files (jobs/<id>.json), so a killed run can resume: each owned by one job runner
// at a time (jobs/job-state.ts writes them). One record type of the project store.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from './atomic';
import { JobStateSchema, type JobState } from './jobs';
import { readProjectFile, type StoreContext } from './project-file';

export class JobRecords {
  constructor(private readonly ctx: Pick<StoreContext, 'dir' | 'warnings'>) {}

  listJobs(): JobState[] {
    const dir = join(this.ctx.dir, 'jobs');
    if (!existsSync(dir)) return [];
    const jobs: JobState[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      try {
        jobs.push(JobStateSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
      } catch (e) {
        this.ctx.warnings.push({ file: join(dir, f), message: `unreadable job state (${(e as Error).message}); ignored` });
      }
    }
    return jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  readJob(id: string): JobState | undefined {
    return readProjectFile(
      join(this.ctx.dir, 'jobs', `${id}.json`),
      JobStateSchema,
      'or delete it (the job cannot be resumed then; the scores it stored are kept)',
    );
  }

  /** Job state files are owned by one job runner at a time; an atomic rewrite needs no project lock. */
  writeJob(job: JobState): void {
    writeJsonAtomic(join(this.ctx.dir, 'jobs', `${job.id}.json`), JobStateSchema.parse(job));
  }
}
