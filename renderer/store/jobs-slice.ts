// Scoring, faithfulness, sweep and download jobs: a snapshot from the engine, then live updates pushed by it.
import type { ApiInput, JobInfo, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface JobsSlice {
  jobs: JobInfo[];
  loadJobs(): Promise<void>;
  /** Applied for every jobUpdate event. */
  upsertJob(job: JobInfo): void;
  startScoring(input: ApiInput<'startScoring'>): Promise<JobInfo | null>;
  startSweep(input: ApiInput<'startSweep'>): Promise<JobInfo | null>;
  startFaithfulness(input: ApiInput<'startFaithfulness'>): Promise<JobInfo | null>;
  jobAction(id: string, action: 'pause' | 'resume' | 'cancel'): Promise<void>;
}

export const createJobsSlice =
  (api: StudioApi): SliceCreator<JobsSlice> =>
  (set, get) => ({
    jobs: [],

    async loadJobs() {
      try {
        set({ jobs: await api.listJobs() }, false, 'jobs/load');
      } catch (e) {
        get().fail(e, 'Cannot list jobs');
      }
    },

    upsertJob(job) {
      const jobs = get().jobs;
      const i = jobs.findIndex((j) => j.id === job.id);
      const prev = i === -1 ? undefined : jobs[i];
      // Events and replies race (a cancel's reply can arrive after the event that it ended): an older
      // state never replaces a newer one.
      if (prev && prev.updatedAt > job.updatedAt) return;
      const next = i === -1 ? [...jobs, job] : jobs.map((j, k) => (k === i ? job : j));
      set({ jobs: next }, false, 'jobs/update');
      // A failure is shown where the user is looking, whatever view is open.
      // (An import's outcome is reported by the import itself: project-slice.)
      if (job.kind === 'import') return;
      if (job.status === 'failed' && prev?.status !== 'failed' && job.error) {
        get().notify({
          kind: 'error',
          title: `${job.title} failed`,
          message: job.error.message,
          code: job.error.code,
          ...(job.error.hint ? { hint: job.error.hint } : {}),
        });
      }
      if (job.kind === 'download' && job.status === 'done' && prev?.status !== 'done' && typeof job.result?.path === 'string') {
        void get().inspectModel(job.result.path);
      }
      // A demo started from the Demo view opens as the project when it is done, if the user is still there
      // (elsewhere, the Demo view offers "Open the demo project").
      if (
        job.kind === 'demo' &&
        job.status === 'done' &&
        prev &&
        prev.status !== 'done' &&
        job.id === get().demoRunJob &&
        get().route.view === 'demo' &&
        typeof job.result?.dir === 'string'
      ) {
        void get().openDemoProject(job.result.dir);
      }
      if (job.status === 'done' && prev && prev.status !== 'done') {
        // (What the job stored reaches the views once, by the engine's projectChanged event: store.ts.)
        get().notify({ kind: 'success', title: `${job.title} finished`, message: job.message ?? `${job.done} of ${job.total} ${job.unit}` });
      }
    },

    async startScoring(input) {
      try {
        const job = await api.startScoring(input);
        get().upsertJob(job);
        return job;
      } catch (e) {
        get().fail(e, 'Scoring did not start');
        return null;
      }
    },

    async startSweep(input) {
      try {
        const job = await api.startSweep(input);
        get().upsertJob(job);
        return job;
      } catch (e) {
        get().fail(e, 'The budget sweep did not start');
        return null;
      }
    },

    async startFaithfulness(input) {
      try {
        const job = await api.startFaithfulness(input);
        get().upsertJob(job);
        return job;
      } catch (e) {
        get().fail(e, 'The faithfulness check did not start');
        return null;
      }
    },

    async jobAction(id, action) {
      try {
        const job = action === 'pause' ? await api.pauseJob({ id }) : action === 'resume' ? await api.resumeJob({ id }) : await api.cancelJob({ id });
        get().upsertJob(job);
      } catch (e) {
        get().fail(e, `Cannot ${action} the job`);
      }
    },
  });
