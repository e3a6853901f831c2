// The engine side of the API contract, shared by the Electron main process and the web host. It owns
// the open project and composes the store, the LOTS math, the exporters, jobs, models and the benchmark.
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ApiMethods, StudioApi } from '../../../shared/api/contract';
import type { ApiParsedInput } from '../../../shared/api/schemas';
import type {
  AppInfo,
  BudgetData,
  DemoData,
  DemoSetup,
  ExportAll,
  ExportText,
  HeatmapData,
  ImportReport,
  RouteReport,
  JobInfo,
  ProjectSummary,
  RankingData,
  RecentProject,
  ReferenceModel,
  SpaceState,
  TraceDetail,
  Transport,
} from '../../../shared/api/types';
import type { GpuInfo, ModelInfo, ModelsState, ScoringServerState } from '../../../shared/api/model-types';
import type { SpaceVersion } from '../../../shared/project/spaces';
import { ProjectStore } from '../store';
import { buildDemoData } from '../views/demo';
import {
  buildDemoProject,
  copySampleProject,
  DEFAULT_SAMPLE_PROJECT_DIR,
  DEMO_PROJECTS,
  DEMO_RUNS,
  demoJobSpec,
  demoSetup,
  SAMPLE_PROJECTS,
} from '../usecases/demo';
import { renderDemoReport } from '../../../shared/export/demo-report';
import { buildBudget } from '../views/budget';
import { invalid, noProject, notFound, unavailable } from '../../../shared/api/errors';
import { STUDIO_VERSION } from '../version';
import { ServiceEvents } from './events';
import { buildSpaceState } from '../views/spaces';
import { acceptSpace } from '../usecases/space';
import { exportAll, renderExport, renderReport, saveExport, saveReport } from './exports';
import { buildHeatmap } from '../views/heatmap';
import { buildGatewayView } from '../views/gateways';
import { ModelCatalog } from '../usecases/models';
import { JobCenter } from '../jobs/center';
import type { WorkerLauncher } from '../jobs/launcher';
import { importTracesAsJob, sourcesOf, type ImportSourceOptions } from '../usecases/import-traces';
import { routeProject } from '../usecases/route';
import { buildRanking } from '../views/ranking';
import { faithfulnessPoints } from '../views/faithfulness';
import { faithfulnessJobSpec } from '../usecases/faithfulness';
import { checkModelOf } from '../read-model/run-model';
import { RecentProjects } from '../user-data/recent';
import { ScoringServer } from '../usecases/scoring-server';
import { buildSummary } from '../views/summary';
import { studioScoreJobSpec } from '../usecases/score';
import { ProjectIndex } from '../read-model/project-index';
import { taskHistory, updateSpaces } from '../usecases/update';
import { compareRuns, listRunInfos } from '../usecases/compare';
import { sweepJobSpec } from '../usecases/sweep';
import type { HistoryData, RunComparison, UpdateResult } from '../../../shared/api/history';
import type { GatewayViewData } from '../../../shared/api/gateways';
import { PathPolicy } from './path-policy';

/** Native dialogs, supplied by the Electron main process (the engine never imports electron). */
export interface NativeDialogs {
  pickPath(kind: ApiParsedInput<'pickPath'>['kind'], defaultName?: string): Promise<string[] | null>;
}

export interface StudioServiceOptions {
  transport: Transport;
  /** Where recent projects and downloaded/generated models live (Electron: userData). */
  configDir: string;
  dialogs?: NativeDialogs;
  platform?: string;
  /** Workers' output is dropped instead of inherited (tests). */
  quietWorkers?: boolean;
  /** How scoring and sweep workers are started (default: child_process.fork; Electron: utilityProcess). */
  launcher?: WorkerLauncher;
  /** The bundled sample project (default: assets/sample-project of this checkout). */
  sampleProjectDir?: string;
  /**
   * `lots ui --root`: every file path the API is given (dispatch applies `paths` to each path field of the
   * schemas), the recent projects and models it lists, and the model files of the runs it starts jobs from
   * must lie inside this folder or in the engine's own folders (models, demo and sample projects).
   */
  root?: string;
  /** Environment variables besides LOTS_SCORING_KEY_* that may be sent to a scoring server as its API key
   * (`lots ui --allow-key-env NAME`). No other variable's value ever leaves the engine. */
  allowKeyEnv?: readonly string[];
}

/** How often a running job's new results are announced to the views. */
const CHANGE_INTERVAL_MS = 3000;

export class StudioService implements ApiMethods {
  readonly events = new ServiceEvents();
  private project: { store: ProjectStore; index: ProjectIndex } | null = null;
  private readonly recent: RecentProjects;
  private readonly models: ModelCatalog;
  private readonly jobs: JobCenter;
  private readonly scoringServer: ScoringServer;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Which file paths may be used (unconfined without `root`). */
  readonly paths: PathPolicy;

  constructor(readonly options: StudioServiceOptions) {
    this.recent = new RecentProjects(options.configDir);
    this.models = new ModelCatalog(options.configDir);
    this.scoringServer = new ScoringServer(options.configDir, options.allowKeyEnv);
    this.paths = options.root
      ? PathPolicy.confinedTo(options.root, [
          { dir: this.models.modelsDir, what: 'models folder' },
          { dir: join(options.configDir, DEMO_PROJECTS), what: 'demo projects folder' },
          { dir: join(options.configDir, SAMPLE_PROJECTS), what: 'sample projects folder' },
          { dir: join(options.configDir, DEMO_RUNS), what: 'demo runs folder' },
        ])
      : PathPolicy.unconfined();
    this.jobs = new JobCenter((job) => this.jobUpdated(job), {
      quiet: options.quietWorkers,
      launcher: options.launcher,
      demoStateDir: join(options.configDir, 'demo-jobs'),
      checkModel: (model, what) => this.paths.check(model, what),
    });
  }

  /** Relay a job's progress; new scores or sweep points reach the views at most every few seconds. */
  private jobUpdated(job: JobInfo): void {
    this.events.emit('jobUpdate', job);
    const finished = job.status === 'done' || job.status === 'cancelled' || job.status === 'failed';
    // An import announces its own change (importTraces, once its files are committed and indexed).
    if (job.kind === 'import') return;
    if (finished) {
      clearTimeout(this.changeTimer);
      this.changeTimer = undefined;
      this.project?.index.sync();
      this.events.emit('projectChanged', { reason: job.kind === 'sweep' ? 'sweep' : 'scores' });
    } else if (!this.changeTimer && job.done > 0) {
      this.changeTimer = setTimeout(() => {
        this.changeTimer = undefined;
        this.project?.index.sync();
        this.events.emit('projectChanged', { reason: job.kind === 'sweep' ? 'sweep' : 'scores' });
      }, CHANGE_INTERVAL_MS);
      this.changeTimer.unref?.();
    }
  }

  /** Stop workers (the app is quitting); what they stored is kept. */
  dispose(): void {
    clearTimeout(this.changeTimer);
    this.jobs.dispose();
  }

  // ------------------------------------------------------------------ app and project

  async getAppInfo(): Promise<AppInfo> {
    return {
      version: STUDIO_VERSION,
      transport: this.options.transport,
      platform: this.options.platform ?? process.platform,
      nativeDialogs: Boolean(this.options.dialogs),
    };
  }

  async listRecentProjects(): Promise<RecentProject[]> {
    return this.recent.list().filter((r) => this.paths.allows(r.dir));
  }

  async getProject(): Promise<ProjectSummary | null> {
    return this.project ? buildSummary(this.project.store, this.project.index) : null;
  }

  async openProject(input: ApiParsedInput<'openProject'>): Promise<ProjectSummary> {
    return this.setProject(ProjectStore.open(input.dir));
  }

  async createProject(input: ApiParsedInput<'createProject'>): Promise<ProjectSummary> {
    const dir = resolve(input.dir);
    if (existsSync(resolve(dir, 'project.json'))) throw invalid(`${dir} already holds a project; open it instead`);
    return this.setProject(ProjectStore.create(dir, input.name ?? basename(dir)));
  }

  async closeProject(): Promise<null> {
    this.project = null;
    this.events.emit('projectChanged', { reason: 'close' });
    return null;
  }

  async pickPath(input: ApiParsedInput<'pickPath'>): Promise<string[] | null> {
    if (!this.options.dialogs) throw unavailable('native file dialogs exist only in the desktop app; type the path instead');
    return this.options.dialogs.pickPath(input.kind, input.defaultName);
  }

  /** Open a project folder (used by `lots ui --project` and the Electron command line too). */
  setProject(store: ProjectStore): ProjectSummary {
    this.project = { store, index: new ProjectIndex(store) };
    this.recent.touch(store.dir, store.info.name);
    this.jobs.projectOpened(store);
    this.events.emit('projectChanged', { reason: 'open' });
    return buildSummary(store, this.project.index);
  }

  // ------------------------------------------------------------------ traces and scores

  /**
   * Runs as a job of kind "import" (progress, what it waits for, cancelJob cancels it); `options.signal`
   * cancels it too. Files imported before stay, the one in progress is dropped (CANCELLED).
   */
  async importTraces(input: ApiParsedInput<'importTraces'>, options: Pick<ImportSourceOptions, 'signal'> = {}): Promise<ImportReport> {
    const { store, index } = this.requireProject();
    const sources = sourcesOf(input);
    const job = this.jobs.startImport(
      sources.map((s) => s.name),
      options.signal,
    );
    const files = await importTracesAsJob(store, sources, job, {
      ...(input.taskField ? { taskField: input.taskField } : {}),
      changed: () => {
        index.sync();
        this.events.emit('projectChanged', { reason: 'import' });
      },
    });
    return { files, project: buildSummary(store, index) };
  }

  /** The use case of `lots route` (TF-IDF embedding): traces without a task get one; a rerun keeps earlier routes. */
  async routeTraces(input: ApiParsedInput<'routeTraces'>): Promise<RouteReport> {
    const { store, index } = this.requireProject();
    const result = routeProject(store, { method: input?.k ? { kind: 'kmeans', k: input.k } : { kind: 'silhouette' }, seed: input?.seed ?? 1 });
    if (result.saved) {
      index.sync();
      this.events.emit('projectChanged', { reason: 'route' });
    }
    return { routed: Object.keys(result.routes).length, sizes: result.sizes, silhouette: result.silhouette, project: buildSummary(store, index) };
  }

  async getHeatmap(input: ApiParsedInput<'getHeatmap'>): Promise<HeatmapData> {
    return buildHeatmap(this.requireProject().index.task(input.task, input.run));
  }

  async getTrace(input: ApiParsedInput<'getTrace'>): Promise<TraceDetail> {
    const { store, index } = this.requireProject();
    index.sync();
    const trace = store.getTrace(input.id);
    if (!trace) throw notFound(`trace "${input.id}" is not in this project`);
    return { trace, hash: store.getTraceHash(input.id)!, scores: store.listScores().filter((s) => s.trace === input.id) };
  }

  async getRanking(input: ApiParsedInput<'getRanking'>): Promise<RankingData> {
    const { store, index } = this.requireProject();
    const data = index.task(input.task, input.run);
    return buildRanking(data, input.k, faithfulnessPoints(store.readFaithfulness(data.task), data), checkModelOf(data));
  }

  async getBudget(input: ApiParsedInput<'getBudget'>): Promise<BudgetData> {
    const { store, index } = this.requireProject();
    return buildBudget(index.task(input.task, input.run), store.readSweep(input.task));
  }

  // ------------------------------------------------------------------ spaces and export

  async getSpaces(input: ApiParsedInput<'getSpaces'>): Promise<SpaceState> {
    const { store, index } = this.requireProject();
    return buildSpaceState(store, index.task(input.task, input.run));
  }

  async getHistory(input: ApiParsedInput<'getHistory'>): Promise<HistoryData> {
    const { store, index } = this.requireProject();
    index.task(input.task); // an unknown task is NOT_FOUND, with the tasks to pick from
    return taskHistory(store, input.task);
  }

  async updateSpace(input: ApiParsedInput<'updateSpace'>): Promise<UpdateResult> {
    const { store, index } = this.requireProject();
    const [result] = await store.lock.runAsync('update space', async () =>
      updateSpaces(store, index, { task: input.task, alpha: input.alpha, rule: input.rule, k: input.k, phi: input.phi, refold: input.refold }),
    );
    this.events.emit('projectChanged', { reason: 'space' });
    return { ...taskHistory(store, input.task), folded: result!.folded.length, refoldReason: result!.refoldReason ?? null };
  }

  async getGateways(): Promise<GatewayViewData> {
    return buildGatewayView(this.requireProject().store, this.requireProject().index);
  }

  async compareRuns(input: ApiParsedInput<'compareRuns'>): Promise<RunComparison> {
    const { store, index } = this.requireProject();
    const [c] = compareRuns(store, index, { runA: input.runA, runB: input.runB, task: input.task, k: input.k });
    const models = new Map(listRunInfos(store).map((r) => [r.run, r.model ?? null]));
    return { ...c!, runA: input.runA, runB: input.runB, modelA: models.get(input.runA) ?? null, modelB: models.get(input.runB) ?? null };
  }

  async acceptSpace(input: ApiParsedInput<'acceptSpace'>): Promise<SpaceVersion> {
    const { store, index } = this.requireProject();
    // Take the write lock without blocking the event loop; the store's own (re-entrant) lock then passes.
    const version = await store.lock.runAsync('accept space', async () => acceptSpace(store, index.task(input.task, input.run), input));
    this.events.emit('projectChanged', { reason: 'space' });
    return version;
  }

  async renderExport(input: ApiParsedInput<'renderExport'>): Promise<ExportText> {
    const { store, index } = this.requireProject();
    return renderExport(store, index, input.task, input.format, input.version, input.mcpServer);
  }

  async saveExport(input: ApiParsedInput<'saveExport'>): Promise<{ path: string }> {
    const { store, index } = this.requireProject();
    return saveExport(store, index, input);
  }

  async exportAllSpaces(input: ApiParsedInput<'exportAllSpaces'>): Promise<ExportAll> {
    const { store, index } = this.requireProject();
    return exportAll(store, index, input.format, input.dir, input.mcpServer);
  }

  async renderReport(input: ApiParsedInput<'renderReport'>): Promise<{ html: string; filename: string }> {
    const { store, index } = this.requireProject();
    return renderReport(store, index, input.task, input.run);
  }

  async saveReport(input: ApiParsedInput<'saveReport'>): Promise<{ path: string }> {
    const { store, index } = this.requireProject();
    return saveReport(store, index, input);
  }

  // ------------------------------------------------------------------ jobs, models, demo

  async listJobs(): Promise<JobInfo[]> {
    return this.jobs.list();
  }

  async startScoring(input: ApiParsedInput<'startScoring'>): Promise<JobInfo> {
    const spec = studioScoreJobSpec(this.requireProject().store, input, () => this.scoringServer.settings(), this.options.allowKeyEnv);
    this.models.remember(spec.model, basename(input.model));
    return this.jobs.startScoring(spec);
  }

  async startSweep(input: ApiParsedInput<'startSweep'>): Promise<JobInfo> {
    return this.jobs.startSweep(sweepJobSpec(this.requireProject().store, input));
  }

  async startFaithfulness(input: ApiParsedInput<'startFaithfulness'>): Promise<JobInfo> {
    const { store, index } = this.requireProject();
    const spec = faithfulnessJobSpec(store.dir, index.task(input.task, input.run), input, { checkPath: (path, what) => this.paths.check(path, what) });
    this.models.remember(spec.model, basename(spec.model));
    return this.jobs.startFaithfulness(spec);
  }

  async pauseJob(input: ApiParsedInput<'pauseJob'>): Promise<JobInfo> {
    return this.jobs.pause(input.id);
  }

  async resumeJob(input: ApiParsedInput<'resumeJob'>): Promise<JobInfo> {
    return this.jobs.resume(input.id);
  }

  async cancelJob(input: ApiParsedInput<'cancelJob'>): Promise<JobInfo> {
    return this.jobs.cancel(input.id);
  }

  async getModels(): Promise<ModelsState> {
    const state = await this.models.state();
    return this.paths.confined ? { ...state, recent: state.recent.filter((m) => this.paths.allows(m.path)) } : state;
  }

  async inspectModel(input: ApiParsedInput<'inspectModel'>): Promise<ModelInfo> {
    return this.models.inspect(input.path, input.gpu);
  }

  async getGpuInfo(): Promise<GpuInfo> {
    return this.models.gpu();
  }

  async downloadModel(input: ApiParsedInput<'downloadModel'>): Promise<JobInfo> {
    await this.models.checkDownload(input.uri);
    return this.jobs.startDownload(input.uri, this.models.modelsDir);
  }

  async prepareReferenceModel(): Promise<ReferenceModel> {
    return this.models.reference();
  }

  async getScoringServer(): Promise<ScoringServerState> {
    return this.scoringServer.state();
  }

  async saveScoringServer(input: ApiParsedInput<'saveScoringServer'>): Promise<ScoringServerState> {
    return this.scoringServer.save(input);
  }

  async checkScoringServer(input: ApiParsedInput<'checkScoringServer'>): Promise<ScoringServerState> {
    return this.scoringServer.check(input);
  }

  async forgetScoringServer(): Promise<ScoringServerState> {
    return this.scoringServer.forget();
  }

  async buildDemo(input: ApiParsedInput<'buildDemo'>): Promise<ProjectSummary> {
    return this.setProject(buildDemoProject(input, this.options.configDir));
  }

  async getDemoSetup(): Promise<DemoSetup> {
    return demoSetup(this.options.configDir, this.models.modelsDir);
  }

  /** `lots demo` as a job (usecases/demo.ts builds and checks the spec). */
  async startDemo(input: ApiParsedInput<'startDemo'>): Promise<JobInfo> {
    const spec = demoJobSpec(input, this.options.configDir, {
      modelsDir: this.models.modelsDir,
      reference: () => this.models.reference(),
      checkPath: (path, what) => this.paths.check(path, what),
    });
    this.models.remember(spec.modelPath, basename(spec.modelPath));
    return this.jobs.startDemo(spec);
  }

  async getDemo(): Promise<DemoData> {
    return buildDemoData(this.requireProject().store);
  }

  async renderDemoReport(): Promise<{ html: string; filename: string }> {
    const { store } = this.requireProject();
    const html = renderDemoReport(buildDemoData(store), { projectName: store.info.name, generatedAt: new Date().toISOString() });
    return { html, filename: 'lots-demo-report.html' };
  }

  async openSampleProject(): Promise<ProjectSummary> {
    const dir = copySampleProject(this.options.sampleProjectDir ?? DEFAULT_SAMPLE_PROJECT_DIR, this.options.configDir);
    return this.openProject({ dir });
  }

  // ------------------------------------------------------------------ events (transports subscribe here)

  onJobUpdate(listener: (job: JobInfo) => void): () => void {
    return this.events.on('jobUpdate', listener);
  }

  onProjectChanged(listener: Parameters<StudioApi['onProjectChanged']>[0]): () => void {
    return this.events.on('projectChanged', listener);
  }

  onMenuCommand(listener: Parameters<StudioApi['onMenuCommand']>[0]): () => void {
    return this.events.on('menuCommand', listener);
  }

  private requireProject(): { store: ProjectStore; index: ProjectIndex } {
    if (!this.project) throw noProject();
    return this.project;
  }
}
