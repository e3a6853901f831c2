// The demo walkthrough: build the benchmark project, then score → rank → sweep → approve → export; and
// the whole `lots demo` run as a job (the "Run the demo" card): its setup, start, and opening its project.
import type { ApiInput, DemoData, DemoSetup, JobInfo, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export const DEMO_STEPS = ['build', 'score', 'rank', 'sweep', 'approve', 'export'] as const;
export type DemoStep = (typeof DEMO_STEPS)[number];
export const DEMO_TASK = 'fx_settle';

export interface DemoSlice {
  demoBusy: boolean;
  demoDone: Partial<Record<DemoStep, boolean>>;
  demoJob: string | null;
  buildDemo(options?: { dir?: string; families?: string[] }): Promise<boolean>;
  markDemo(step: DemoStep): void;
  /** Run one step of the walk for real: build (into `dir`, one family when `size` is quick), score and
   * sweep on the reference model, rank, approve the recommended space, export. */
  runDemoStep(step: DemoStep, options?: { dir?: string; size?: 'quick' | 'full' }): Promise<void>;
  setDemoJob(id: string | null): void;
  /** The open project's demo story; null until loaded (or without a project). */
  demoData: DemoData | null;
  demoLoading: boolean;
  loadDemo(): Promise<void>;
  /** Copy the bundled sample project to the data folder, open it and show its demo story. */
  openSampleProject(): Promise<boolean>;
  sampleBusy: boolean;
  /** What the "Run the demo" card offers (a default folder, the default model if pulled, the presets). */
  demoSetup: DemoSetup | null;
  loadDemoSetup(): Promise<void>;
  /** The demo job started from the card in this session: its project opens when it is done. */
  demoRunJob: string | null;
  startDemo(input: ApiInput<'startDemo'>): Promise<JobInfo | null>;
  /** Open a demo's folder as the project and show its story. */
  openDemoProject(dir: string): Promise<boolean>;
}

export const createDemoSlice =
  (api: StudioApi): SliceCreator<DemoSlice> =>
  (set, get) => ({
    demoBusy: false,
    demoDone: {},
    demoJob: null,
    demoData: null,
    demoLoading: false,
    sampleBusy: false,
    demoSetup: null,
    demoRunJob: null,

    async loadDemoSetup() {
      try {
        set({ demoSetup: await api.getDemoSetup() }, false, 'demo/setup');
      } catch (e) {
        get().fail(e, 'Cannot read the demo settings');
      }
    },

    async startDemo(input) {
      try {
        const job = await api.startDemo(input);
        set({ demoRunJob: job.id }, false, 'demo/run-start');
        get().upsertJob(job);
        return job;
      } catch (e) {
        get().fail(e, 'The demo did not start');
        return null;
      }
    },

    async openDemoProject(dir) {
      try {
        const project = await api.openProject({ dir });
        get().projectOpened(project);
        set({ route: { view: 'demo', ...(project.tasks[0] ? { task: project.tasks[0].task } : {}) } }, false, 'demo/run-open');
        await get().loadDemo();
        return true;
      } catch (e) {
        get().fail(e, 'Cannot open the demo project');
        return false;
      }
    },

    async loadDemo() {
      if (!get().project) {
        set({ demoData: null }, false, 'demo/none');
        return;
      }
      set({ demoLoading: true }, false, 'demo/load-start');
      try {
        set({ demoData: await api.getDemo(), demoLoading: false }, false, 'demo/load');
      } catch (e) {
        set({ demoLoading: false }, false, 'demo/load-failed');
        get().fail(e, 'Cannot read the demo results');
      }
    },

    async openSampleProject() {
      set({ sampleBusy: true }, false, 'demo/sample-start');
      try {
        const project = await api.openSampleProject();
        get().projectOpened(project);
        // projectOpened picked the first task; keep it, so the task views open from the demo.
        set({ sampleBusy: false, route: { ...get().route, view: 'demo' } }, false, 'demo/sample');
        await get().loadDemo();
        return true;
      } catch (e) {
        set({ sampleBusy: false }, false, 'demo/sample-failed');
        get().fail(e, 'Cannot open the sample project');
        return false;
      }
    },

    async buildDemo(options = {}) {
      set({ demoBusy: true }, false, 'demo/build-start');
      try {
        const project = await api.buildDemo({ ...(options.dir ? { dir: options.dir } : {}), ...(options.families ? { families: options.families } : {}) });
        get().projectOpened(project);
        // fx_settle has a two-tool chain: the clearest family to show first.
        const task = project.tasks.find((t) => t.task === DEMO_TASK)?.task ?? project.tasks[0]?.task;
        set({ demoBusy: false, demoDone: { build: true }, demoJob: null, route: { view: 'demo', ...(task ? { task } : {}) } }, false, 'demo/build');
        return true;
      } catch (e) {
        set({ demoBusy: false }, false, 'demo/build-failed');
        get().fail(e, 'The demo project was not built');
        return false;
      }
    },

    async runDemoStep(step, options = {}) {
      const state = get();
      const task = state.route.task;
      switch (step) {
        case 'build': {
          const dir = options.dir?.trim();
          await state.buildDemo({ ...(dir ? { dir } : {}), ...(options.size !== 'full' ? { families: [DEMO_TASK] } : {}) });
          return;
        }
        case 'score': {
          const model = await state.useReferenceModel();
          if (!model) return;
          const job = await get().startScoring({ model, intervention: 'reexecute' });
          if (job) {
            get().setDemoJob(job.id);
            get().markDemo('score');
          }
          return;
        }
        case 'rank':
          state.markDemo('rank');
          state.navigate({ view: 'ranking' });
          return;
        case 'sweep': {
          const model = await state.useReferenceModel();
          if (!model || !task) return;
          const job = await get().startSweep({ task, model, baselines: true });
          if (job) {
            get().setDemoJob(job.id);
            get().markDemo('sweep');
          }
          return;
        }
        case 'approve': {
          if (!task) return;
          await Promise.all([state.loadBudget(task), state.loadSpaces(task)]);
          get().ensureDraft(task);
          // Read after loading: the freshly loaded recommended K.
          const rec = get().budgets[task]?.value.recommendedK;
          if (rec !== null && rec !== undefined) get().setK(task, rec);
          if (await get().acceptDraft(task)) get().markDemo('approve');
          return;
        }
        case 'export':
          state.markDemo('export');
          state.navigate({ view: 'export' });
          return;
      }
    },

    markDemo(step) {
      set({ demoDone: { ...get().demoDone, [step]: true } }, false, `demo/${step}`);
    },

    setDemoJob(demoJob) {
      set({ demoJob }, false, 'demo/job');
    },
  });
