// The ONE API the renderer sees. The Electron preload, the local web host and the tests' fakes are
// adapters of this interface; the engine-side implementation (electron/engine/service) never knows the
// transport. Methods return promises; events are onXxx(listener) → unsubscribe.
import type { SpaceVersion } from '../project/spaces';
import type { ApiInput, ApiMethodName } from './schemas';
import type { HistoryData, RunComparison, UpdateResult } from './history';
import type { GatewayViewData } from './gateways';
import type {
  AppInfo,
  BudgetData,
  DemoData,
  DemoSetup,
  ExportText,
  HeatmapData,
  ImportReport,
  RouteReport,
  JobInfo,
  MenuCommand,
  ProjectChange,
  ProjectSummary,
  RankingData,
  RecentProject,
  ReferenceModel,
  SpaceState,
  ExportAll,
  TraceDetail,
} from './types';
import type { GpuInfo, ModelInfo, ModelsState, ScoringServerState } from './model-types';

export type Unsubscribe = () => void;

export interface StudioApi {
  getAppInfo(): Promise<AppInfo>;
  listRecentProjects(): Promise<RecentProject[]>;
  /** The open project, or null. */
  getProject(): Promise<ProjectSummary | null>;
  openProject(input: ApiInput<'openProject'>): Promise<ProjectSummary>;
  createProject(input: ApiInput<'createProject'>): Promise<ProjectSummary>;
  closeProject(): Promise<null>;
  /** A native dialog (Electron only; the web host answers UNAVAILABLE). null when cancelled. */
  pickPath(input: ApiInput<'pickPath'>): Promise<string[] | null>;

  importTraces(input: ApiInput<'importTraces'>): Promise<ImportReport>;
  /** Route the traces imported without a task (TF-IDF of their request text, as `lots route`). */
  routeTraces(input?: ApiInput<'routeTraces'>): Promise<RouteReport>;
  getHeatmap(input: ApiInput<'getHeatmap'>): Promise<HeatmapData>;
  getTrace(input: ApiInput<'getTrace'>): Promise<TraceDetail>;
  getRanking(input: ApiInput<'getRanking'>): Promise<RankingData>;
  getBudget(input: ApiInput<'getBudget'>): Promise<BudgetData>;

  getSpaces(input: ApiInput<'getSpaces'>): Promise<SpaceState>;
  acceptSpace(input: ApiInput<'acceptSpace'>): Promise<SpaceVersion>;
  /** A task's update batches, approved versions and (benchmark streams) every arm batch by batch. */
  getHistory(input: ApiInput<'getHistory'>): Promise<HistoryData>;
  updateSpace(input: ApiInput<'updateSpace'>): Promise<UpdateResult>;
  compareRuns(input: ApiInput<'compareRuns'>): Promise<RunComparison>;
  /** The gateways (`lots gateway`) that served the project, running or not, and the batches they recorded. */
  getGateways(): Promise<GatewayViewData>;

  renderExport(input: ApiInput<'renderExport'>): Promise<ExportText>;
  saveExport(input: ApiInput<'saveExport'>): Promise<{ path: string }>;
  /** "Export every approved space": one file per approved task; a task without an approved space is skipped, never exported empty. */
  exportAllSpaces(input: ApiInput<'exportAllSpaces'>): Promise<ExportAll>;
  renderReport(input: ApiInput<'renderReport'>): Promise<{ html: string; filename: string }>;
  saveReport(input: ApiInput<'saveReport'>): Promise<{ path: string }>;

  listJobs(): Promise<JobInfo[]>;
  startScoring(input: ApiInput<'startScoring'>): Promise<JobInfo>;
  startSweep(input: ApiInput<'startSweep'>): Promise<JobInfo>;
  /** The faithfulness check of a task's ranking (a job in the scoring queue); results reach getRanking. */
  startFaithfulness(input: ApiInput<'startFaithfulness'>): Promise<JobInfo>;
  pauseJob(input: ApiInput<'pauseJob'>): Promise<JobInfo>;
  resumeJob(input: ApiInput<'resumeJob'>): Promise<JobInfo>;
  cancelJob(input: ApiInput<'cancelJob'>): Promise<JobInfo>;

  getModels(): Promise<ModelsState>;
  inspectModel(input: ApiInput<'inspectModel'>): Promise<ModelInfo>;
  getGpuInfo(): Promise<GpuInfo>;
  downloadModel(input: ApiInput<'downloadModel'>): Promise<JobInfo>;
  /** Generates (once) the built-in evidence-copy reference model, for demos without a real model. */
  prepareReferenceModel(): Promise<ReferenceModel>;
  /** The scoring server(s) kept for this user (the Models view's "Scoring server"), and their last check. */
  getScoringServer(): Promise<ScoringServerState>;
  /** Keeps the settings (nothing is contacted); the API key variable must be one the operator allowed. */
  saveScoringServer(input: ApiInput<'saveScoringServer'>): Promise<ScoringServerState>;
  /** Asks every endpoint what it serves (model, run-key identity, slots, or a status line); saves nothing. */
  checkScoringServer(input: ApiInput<'checkScoringServer'>): Promise<ScoringServerState>;
  forgetScoringServer(): Promise<ScoringServerState>;

  buildDemo(input: ApiInput<'buildDemo'>): Promise<ProjectSummary>;
  /** What the "Run the demo" card offers: a default folder, the default model (pulled or not), the presets. */
  getDemoSetup(): Promise<DemoSetup>;
  /** `lots demo` as a job (kind "demo"): stage progress in JobInfo.steps, cancel, resume on the same folder. */
  startDemo(input: ApiInput<'startDemo'>): Promise<JobInfo>;
  getDemo(): Promise<DemoData>;
  renderDemoReport(): Promise<{ html: string; filename: string }>;
  /** The sample project (a real benchmark run, bundled): copied to the user's data folder and opened. */
  openSampleProject(): Promise<ProjectSummary>;

  onJobUpdate(listener: (job: JobInfo) => void): Unsubscribe;
  onProjectChanged(listener: (change: ProjectChange) => void): Unsubscribe;
  /** Native menu commands (Electron only; never fires in a browser). */
  onMenuCommand(listener: (command: MenuCommand) => void): Unsubscribe;
}

export type ApiMethods = Pick<StudioApi, ApiMethodName>;

/** Every event and the payload it carries. */
export interface ApiEvents {
  jobUpdate: JobInfo;
  projectChanged: ProjectChange;
  menuCommand: MenuCommand;
}
export type ApiEventName = keyof ApiEvents;

// A compile-time check that the interface and the schema map list the same methods.
type Missing = Exclude<ApiMethodName, keyof StudioApi>;
export const contractIsComplete: Missing extends never ? true : never = true;
