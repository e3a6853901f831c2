// What the engine returns to the renderer. Plain JSON values, so every transport (IPC structured clone,
// HTTP JSON) carries them unchanged; big matrices travel as base64 typed arrays (see matrix.ts).
import type { InterventionKind, RemovedStep } from '../trace/interventions';
import type { Trace } from '../trace/schema';
import type { StoredScore } from '../project/scores';
import type { SpaceCandidate, SpaceState } from '../project/spaces';

export type { SpaceCandidate, SpaceState };
import { TOOL_EXPORT_FORMATS } from './export-formats';
import type { BaselineResult } from '../project/sweeps';
import type { DemoRecord } from '../project/demo';
import type { PairedTable } from '../benchmark/paired-table';
import type { CostRow } from '../benchmark/cost-table';
import type { FixedKTable } from '../benchmark/fixed-k-table';

export type Transport = 'electron' | 'web';

export interface AppInfo {
  version: string;
  transport: Transport;
  platform: string;
  /** Native open/save dialogs exist (Electron); in a browser paths are typed in. */
  nativeDialogs: boolean;
  /** Opened with the web host's view-only link: only the open project's views can be read (write actions are refused). */
  viewOnly?: boolean;
}

export interface RecentProject {
  dir: string;
  name: string;
  openedAt: string;
}

export interface ActivityItem {
  at: string;
  kind: string;
  message: string;
}

export type SpaceStatus = 'none' | 'proposed' | 'approved' | 'changed';

export interface TaskSummary {
  task: string;
  requests: number;
  /** Requests with a score row in the task's latest run. */
  scored: number;
  /** Tools on the union of the task's menus. */
  tools: number;
  /** |A_t|: tools with at least one score. */
  eligible: number;
  correct: number;
  wrong: number;
  unlabeled: number;
  space: { status: SpaceStatus; version?: number; size?: number; approvedAt?: string };
  models: string[];
  latestRun?: string;
  /** Runs with scores for this task, oldest first. */
  runs: string[];
  swept: boolean;
}

export interface RunInfo {
  run: string;
  model?: string;
  intervention?: string;
  span?: string;
  rows: number;
  lastAt?: string;
}

export interface ProjectSummary {
  dir: string;
  name: string;
  createdAt: string;
  traces: number;
  tasks: TaskSummary[];
  runs: RunInfo[];
  models: string[];
  activity: ActivityItem[];
  /** Problems met while reading (torn lines, skipped records): shown, never fatal. */
  warnings: string[];
}

export interface RejectedLine {
  line: number;
  message: string;
}

export interface ImportFileReport {
  file: string;
  format: string;
  added: number;
  duplicates: number;
  conflicts: { id: string; message: string }[];
  rejected: RejectedLine[];
  /** Rejected lines beyond those listed. */
  moreRejected: number;
  /** Traces imported without a task (left for routing). */
  unlabelled?: number;
  /** The field the records seem to keep a task label in, when they were read without one (offer it). */
  taskFieldGuess?: string;
  /** Records read into another record's trace, not traces of their own (a Responses chain's earlier
   * responses, a background response's later retrievals): said, so the record count adds up. */
  folded?: number;
}

export interface ImportReport {
  files: ImportFileReport[];
  project: ProjectSummary;
}

/** What a routing run (`routeTraces`, `lots route`) did. */
export interface RouteReport {
  /** Traces given a task by this run (0: every trace already had one). */
  routed: number;
  /** Requests per new task, by task name (`cluster-01`, …). */
  sizes: Record<string, number>;
  silhouette: number;
  project: ProjectSummary;
}

/** Cell states of the attribution heatmap. */
export const CELL_UNEXPOSED = 0;
export const CELL_EXPOSED = 1;
export const CELL_SCORED = 2;

export interface HeatmapRequest {
  id: string;
  /** The request text (first turn), cut to a length worth searching and showing. */
  text: string;
  correct: boolean | null;
  /** False when no turn of it has a frozen target (every recorded answer empty): it can never be scored. */
  scoreable?: boolean;
}

export interface HeatmapData {
  task: string;
  run: string | null;
  /** Columns: scored tools in ranking order, then exposed-but-unscored tools by name. */
  tools: string[];
  /** Ī_t(s) per column (NaN-free: null for an unscored tool). */
  means: (number | null)[];
  requests: HeatmapRequest[];
  /** base64 Float32Array, rows × tools, row-major; a cell that is not scored holds 0. */
  values: string;
  /** base64 Uint8Array, rows × tools: CELL_UNEXPOSED / CELL_EXPOSED / CELL_SCORED. */
  states: string;
  /** Largest |I_x(s)| over scored cells (0 when none): the colour scale is symmetric around 0. */
  maxAbs: number;
}

export interface TraceDetail {
  trace: Trace;
  hash: string;
  /** Score records of this trace, every run. */
  scores: StoredScore[];
}

export interface RankingRow {
  tool: string;
  rank: number;
  mean: number;
  n: number;
  /** Requests of the task that exposed the tool. */
  exposed: number;
  lo: number;
  hi: number;
  /** Share of bootstrap resamples in which the tool is in the top-K (null: no bootstrap). */
  topKShare: number | null;
  meanRank: number | null;
  /** Its score was shared with co-called tools on this many requests (a message called several tools). */
  sharedOn: number;
}

/** The faithfulness check at one budget (ContextCite's test on the task ranking): each scored request loses
 * its best-ranked k scoreable tools together, or k random ones. Drops are in nats of mean log-probability
 * per frozen answer token. */
export interface FaithfulnessPoint {
  k: number;
  /** Mean drop of L(y|h) when each request's top-k tools are removed together. */
  drop: number;
  /** Mean Σ of those tools' single scores I_x(s): what the additive surrogate predicts. */
  additive: number;
  /** Mean drop when k of the request's scoreable tools drawn at random are removed together. */
  random: number;
  /** Random draws per request. */
  draws: number;
  /** Share of the requests whose top-k drop exceeds their random drop. */
  beatsRandom: number;
  /** Requests measured (those with at least k scoreable tools). */
  n: number;
  /** The task's top-k when the check ran. */
  tools: string[];
  /** Measured on an earlier state of the ranking (more requests scored since, or another top-k). */
  stale: boolean;
  createdAt: string;
}

export interface RankingData {
  task: string;
  run: string | null;
  requests: number;
  scoredRequests: number;
  /** The budget whose membership the stability column tracks. */
  k: number;
  resamples: number;
  level: number;
  rows: RankingRow[];
  /** Exposed but never scored: not eligible, never added to a space. */
  unscored: string[];
  /** Faithfulness checks of this run, one per k measured; empty until a check has run. */
  faithfulness: FaithfulnessPoint[];
  /** The model file a check would use (the one the run was scored with) when it is on this machine;
   * null for imported scores or a file that is not here. */
  checkModel: string | null;
}

export interface BudgetPoint {
  k: number;
  /** F̂(TopK). */
  surrogate: number;
  /** Measured fitting accuracy of the top-K space (a sweep), else null. */
  accuracy: number | null;
  n: number | null;
  /** Mean prompt tokens per request under the top-K space (sweep), else null. */
  promptTokens: number | null;
  /** Tokens of the tool definitions of the top-K space. */
  schemaTokens: number;
  /** Tokens of the demoted form (name and one line, no schema) of the ranked tools after the top K: the
   * proposal's deferred tools at K, as the gateway sends them to an upstream without native deferral. */
  deferredTokens: number;
}

export interface BudgetData {
  task: string;
  run: string | null;
  /** Eligible tools, ranked. */
  ranking: { tool: string; mean: number }[];
  points: BudgetPoint[];
  /** F(S) when known (scores computed here); null: the surrogate is relative to the full menu. */
  fullValue: number | null;
  /** Tokens of each tool's definition, so any edited space can be costed instantly. */
  toolSchemaTokens: Record<string, number>;
  /** Tokens of each tool's demoted form (name and the first sentence of its description, no parameter schema). */
  toolDemotedTokens: Record<string, number>;
  /** True when token counts are estimated from text length (no tokenizer at hand). */
  schemaTokensEstimated: boolean;
  /** All tools on the task's menu (the keep-all baseline). */
  menuSize: number;
  menuSchemaTokens: number;
  /** `withoutEvidence`: no K of the sweep answered a fitting request right, so its K is the smallest by
   * rule, not by evidence. */
  sweep: { model: string; createdAt: string; bestK: number | null; withoutEvidence: boolean } | null;
  baselines: BaselineResult[];
  recommendedK: number | null;
  /** 'sweep': smallest K at the best fitting accuracy; 'surrogate': every tool with Ī > 0 (no sweep yet). */
  recommendedBy: 'sweep' | 'surrogate' | null;
  /** The K that maximises F̂ (every tool with Ī > 0, at least one): the ranking's own budget, with or without a sweep. */
  surrogateK: number | null;
}

/** One method's result on one split of a task (or the mean over tasks). */
export interface DemoCell {
  accuracy: number;
  n: number;
  promptTokens: number;
  /** Random: the std over draws. */
  accuracyStd?: number;
}

export interface DemoTask {
  task: string;
  k: number;
  /** The LOTS space at K, in rank order. */
  kept: string[];
  /** True where no K of the sweep answered a fitting request right: K is the rule's default (the smallest), not evidence. */
  kByDefault?: boolean;
  /** The family's gold chain (the benchmark's ground truth; empty for no_tool). */
  chain: string[];
  /** method → split → result */
  methods: Record<string, { fit?: DemoCell; eval?: DemoCell }>;
}

/** The demo project's story: results per task and their means, how it was run, registry growth. */
export interface DemoData {
  record: DemoRecord | null;
  methods: string[];
  tasks: DemoTask[];
  /** Mean over tasks per method and split (n summed). */
  mean: Record<string, { fit?: DemoCell; eval?: DemoCell }>;
  /** LOTS − each baseline on the same evaluation requests (absent without per-request outcomes). */
  paired?: PairedTable;
  /** The cost of selection per method (paper Table 20). */
  cost?: CostRow[];
  /** The evaluation requests LOTS and keep-all answered differently (absent without per-request outcomes). */
  differences?: DemoDifference[];
  /** LOTS pinned + deferred, pooled over the tasks' evaluation requests: how many asked for a deferred tool
   * and how many of those were then right (absent without the row). */
  deferredCalls?: { asked: number; n: number; rightAfterAsking: number };
  /** The paper's Table 9: every label-free ranking at the same K = 2 and K = 4 against LOTS's top-K (absent
   * without a baseline measured at a fixed K). */
  fixedK?: FixedKTable;
}

/** One evaluation request where LOTS's space and the whole registry disagree on correctness. */
export interface DemoDifference {
  task: string;
  /** The request's trace id in the project. */
  request: string;
  /** The request text (first turn), when the trace is in the project. */
  text?: string;
  /** True: LOTS right and keep-all wrong; false: the reverse. */
  lotsRight: boolean;
  /** Prompt tokens per request under each menu. */
  lotsTokens: number;
  allTokens: number;
}

export const EXPORT_FORMATS = TOOL_EXPORT_FORMATS;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportText {
  format: ExportFormat;
  text: string;
  filename: string;
  mime: string;
  /** Which version was exported; null when none is approved yet (the proposal was exported). */
  version: number | null;
}

/** Every approved space in one format (exportAllSpaces). */
export interface ExportAll {
  format: ExportFormat;
  files: { task: string; version: number; filename: string; text: string; mime: string; pinned: number; deferred: number; path: string | null }[];
  /** Tasks without an approved space: listed, not exported. */
  skipped: { task: string; reason: string }[];
}

export type JobKind = 'score' | 'sweep' | 'serve' | 'demo' | 'download' | 'faithfulness' | 'import';
/** `interrupted`: its process died while it ran (a crash, a kill); it can be resumed or dismissed. */
export type JobStatus = 'queued' | 'running' | 'paused' | 'interrupted' | 'done' | 'failed' | 'cancelled';

export interface JobInfo {
  id: string;
  kind: JobKind;
  title: string;
  /** The task a per-task job (a faithfulness check, a sweep) works on. */
  task?: string;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  done: number;
  total: number;
  /** What `done` counts: traces, K values, bytes… */
  unit: string;
  /** Units per second over the recent window. */
  throughput?: number;
  tokensPerSecond?: number;
  etaSeconds?: number;
  /** A scoring job: the traces being scored and their sequences (a base or an intervention at one turn)
   * done of their plans; progress inside a trace, which can take minutes. */
  inFlight?: { traces: number; sequencesDone: number; sequences: number };
  message?: string;
  error?: { code: string; message: string; hint?: string };
  canPause: boolean;
  canResume: boolean;
  canCancel: boolean;
  /** The job's result, where there is one (e.g. the path of a downloaded model). */
  result?: Record<string, unknown>;
  /** A job of several stages (the demo): each stage, done / running with its counts / waiting. */
  steps?: JobStep[];
  /** The job's latest log lines, oldest first (the demo: what `lots demo` prints). */
  log?: string[];
}

export interface JobStep {
  id: string;
  label: string;
  status: 'waiting' | 'running' | 'done';
  done: number;
  total: number;
  /** What `done` counts (requests, traces, families…); empty for a stage without counts (loading the model). */
  unit: string;
  /** What it is at: the family being swept and its budgets, what was reused… */
  detail?: string;
}

/** What the Demo view's "Run the demo" card offers (getDemoSetup). */
export interface DemoSetup {
  /** A new folder under the user's data folder. */
  defaultDir: string;
  /** The default real model: its source, its file when pulled (else null), and how to pull it. */
  defaultModel: { source: string; path: string | null; pullCommand: string };
  /** The presets' sizes as `lots demo` defines them (DEMO_PRESETS); kMax null: every K. */
  presets: Record<'quick' | 'standard' | 'full', { fit: number; eval: number; draws: number; kMax: number | null }>;
  /** Every family of the built-in benchmark (default: all). */
  families: string[];
  /** Registry sizes allowed. */
  registry: { min: number; max: number; default: number };
}

export interface ReferenceModel {
  path: string;
  name: string;
  note: string;
}

export type MenuCommand =
  | 'project/open'
  | 'project/new'
  | 'project/close'
  | 'traces/import'
  | 'export/open'
  | 'demo/open'
  | 'view/toggle-theme'
  | 'view/find'
  | 'view/home'
  | 'view/heatmap'
  | 'view/trace'
  | 'view/ranking'
  | 'view/budget'
  | 'view/space'
  | 'view/export'
  | 'view/jobs'
  | 'view/gateway'
  | 'view/models'
  | 'view/demo'
  | 'help/shortcuts';

export interface ProjectChange {
  reason: 'import' | 'route' | 'scores' | 'space' | 'sweep' | 'open' | 'close';
}

export type { InterventionKind, RemovedStep };
