// One zod schema per API input. Every adapter (Electron IPC, the web host) parses the input with these
// before the service sees it, so a malformed message is an INVALID_INPUT error, never a crash.
import { z } from 'zod';
import { SelectionRuleSchema } from '../project/spaces';
import { ScoreSpanSchema } from '../project/scores';
import { FAMILY_NAMES } from '../benchmark/family';
import { EXPORT_FORMATS } from './types';
import { DEFAULT_SCORING_BACKEND, SCORING_SERVER_BACKENDS } from '../scoring/backends';
import { filePath, invalidPathReason } from './path-fields';

const none = z.undefined().or(z.null()).or(z.object({}).strict()).optional();
/** Every file path an input takes is this one schema: `lots ui --root` finds and confines them by it (path-fields.ts). */
const path = filePath;
const task = z.string().min(1, 'a task name is required');
const run = z.string().min(1).optional();
const jobId = z.object({ id: z.string().min(1) }).strict();
const toolList = z.array(z.string().min(1)).max(10_000);
/** mcp-claude exports: the MCP server's name in the agent's config (`mcp__<server>__<tool>`). */
const mcpServer = z.string().min(1).max(200).optional();

/** The scoring-server settings as the Models view's card sends them (to save, or to check). */
const scoringServerInput = z
  .object({
    backend: z.enum(SCORING_SERVER_BACKENDS).default(DEFAULT_SCORING_BACKEND.id),
    endpoints: z.array(z.string().trim().min(1, 'an endpoint URL is empty').max(2048)).min(1, 'give at least one endpoint URL').max(64),
    apiKeyEnv: z
      .string()
      .max(256)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'the API key variable must be an environment variable name (letters, digits, _; not the key itself)')
      .optional(),
    servedModel: z.string().trim().min(1).max(512).optional(),
  })
  .strict();

export const apiInputSchemas = {
  getAppInfo: none,
  listRecentProjects: none,
  getProject: none,
  openProject: z.object({ dir: path }).strict(),
  createProject: z.object({ dir: path, name: z.string().min(1).optional() }).strict(),
  closeProject: none,
  pickPath: z
    .object({
      kind: z.enum(['project', 'traces', 'model', 'save']),
      defaultName: z.string().optional(),
    })
    .strict(),

  importTraces: z
    .object({
      paths: z.array(path).max(1000).optional(),
      /** Contents read in the page (drag-drop, a browser file picker). */
      files: z
        .array(z.object({ name: z.string().min(1), text: z.string() }).strict())
        .max(1000)
        .optional(),
      /** Dotted path of the task label in each record (`metadata.task`), as `lots import --task-field`. */
      taskField: z.string().min(1).max(200).optional(),
    })
    .strict()
    .refine((v) => (v.paths?.length ?? 0) + (v.files?.length ?? 0) > 0, { message: 'give at least one file (paths or files)' }),
  /** `lots route` from the Studio: the traces without a task get one by clustering their request text. */
  routeTraces: z
    .object({
      /** Number of tasks; default: chosen by silhouette, as `lots route` without --k. */
      k: z.number().int().min(1).max(1000).optional(),
      seed: z.number().int().optional(),
    })
    .strict()
    .optional(),
  getHeatmap: z.object({ task, run }).strict(),
  getTrace: z.object({ id: z.string().min(1) }).strict(),
  getRanking: z.object({ task, run, k: z.number().int().nonnegative().optional() }).strict(),
  getBudget: z.object({ task, run }).strict(),

  getSpaces: z.object({ task, run }).strict(),
  acceptSpace: z
    .object({
      task,
      tools: toolList,
      /** Deferred tools (callable, not loaded up front); default: the task's other observed tools. */
      deferred: toolList.optional(),
      pinned: toolList.default([]),
      banned: toolList.default([]),
      /** The operator's `defer` edits (kept deferred by later updates); a subset of `deferred`. */
      deferEdits: toolList.optional(),
      rule: SelectionRuleSchema,
      note: z.string().max(10_000).default(''),
      run,
    })
    .strict(),

  getHistory: z.object({ task }).strict(),
  /** Fold the task's new scored batches into its running scores and propose the next space (nothing is applied). */
  updateSpace: z
    .object({
      task,
      alpha: z.number().gt(0).max(1).optional(),
      rule: z.enum(['topk', 'support']).optional(),
      k: z.number().int().positive().optional(),
      phi: z.number().min(0).max(1).optional(),
      refold: z.boolean().optional(),
    })
    .strict(),
  /** The gateways that served the open project (their status records) and the batches they recorded. */
  getGateways: none,
  compareRuns: z.object({ task, runA: z.string().min(1), runB: z.string().min(1), k: z.number().int().positive().optional() }).strict(),

  renderExport: z.object({ task, format: z.enum(EXPORT_FORMATS), version: z.number().int().nonnegative().optional(), mcpServer }).strict(),
  saveExport: z.object({ task, format: z.enum(EXPORT_FORMATS), path, version: z.number().int().nonnegative().optional(), mcpServer }).strict(),
  /** Every approved space in one format: written into `dir` when given, else returned (tasks without one are listed as skipped). */
  exportAllSpaces: z.object({ format: z.enum(EXPORT_FORMATS), dir: path.optional(), mcpServer }).strict(),
  renderReport: z.object({ task, run }).strict(),
  saveReport: z.object({ task, path, run }).strict(),

  listJobs: none,
  startScoring: z
    .object({
      model: path,
      intervention: z.enum(['evidence', 'line', 'reexecute']).optional(),
      span: ScoreSpanSchema.optional(),
      gpu: z.enum(['auto', 'cuda', 'vulkan', 'metal', 'cpu']).optional(),
      tasks: z.array(task).optional(),
      /** Where the log-probs come from: this machine (llama.cpp, the default) or the saved scoring server(s)
       * (checkScoringServer); with 'server', `model` is read only for its chat template and vocabulary. */
      backend: z.enum(['local', 'server']).optional(),
    })
    .strict(),
  startSweep: z.object({ task, model: path, run, baselines: z.boolean().optional() }).strict(),
  startFaithfulness: z
    .object({
      task,
      run,
      /** Budgets to check. */
      ks: z.array(z.number().int().positive()).min(1).max(100),
      /** Random K-subsets per request (default 3). */
      draws: z.number().int().min(1).max(50).optional(),
      /** Default: the model file the run was scored with. */
      model: path.optional(),
      gpu: z.enum(['auto', 'cuda', 'vulkan', 'metal', 'cpu']).optional(),
    })
    .strict(),
  pauseJob: jobId,
  resumeJob: jobId,
  cancelJob: jobId,

  getModels: none,
  inspectModel: z.object({ path, gpu: z.enum(['auto', 'cuda', 'vulkan', 'metal', 'cpu']).optional() }).strict(),
  getGpuInfo: none,
  downloadModel: z.object({ uri: z.string().min(1) }).strict(),
  prepareReferenceModel: none,
  /** The saved scoring-server settings and their last check. */
  getScoringServer: none,
  /** Save these settings (per user); nothing is contacted. The API key variable must be one the operator allowed. */
  saveScoringServer: scoringServerInput,
  /** Ask one endpoint what it serves (model id and status line; never a server's body): `endpoints` names exactly
   * one (after normalisation); check each in turn. Nothing is saved; the saved settings' last check is composed
   * from this session's checks of their endpoints. */
  checkScoringServer: scoringServerInput,
  /** Remove the saved settings (scoring then runs on this machine only). */
  forgetScoringServer: none,

  buildDemo: z
    .object({
      dir: path.optional(),
      /** Task families of the benchmark (default: all ten); one family makes a demo of about a minute on a CPU. */
      families: z.array(z.string().min(1)).min(1).optional(),
      registry: z.number().int().min(15).max(1000).optional(),
      seed: z.number().int().optional(),
    })
    .strict(),
  /** What the "Run the demo" card offers: a default folder, the default model (pulled or not), the presets' sizes. */
  getDemoSetup: none,
  /**
   * `lots demo` as a job: the same runDemo, in the job worker, with stage progress and cancel. The same
   * folder with the same options resumes (what is stored is reused). The options mirror the CLI's flags.
   */
  startDemo: z
    .object({
      /** Default: a new folder under the user's data folder. */
      dir: path.optional(),
      /** "default" (the default real model, pulled first on the Models view or with `lots models pull`),
       * "reference" (the built-in generated model: no real model, its results are noise), or a GGUF file. */
      model: z
        .string()
        .min(1, 'a model is required: "default", "reference" or a GGUF file')
        .max(4096)
        .refine((v) => invalidPathReason(v) === null, { message: 'a model name or file cannot contain a NUL byte (\\0)' }),
      preset: z.enum(['quick', 'standard', 'full']).optional(),
      families: z.array(z.enum(FAMILY_NAMES)).min(1).max(FAMILY_NAMES.length).optional(),
      /** Registry sizes; several run the families at each size (registry growth). */
      registry: z.array(z.number().int().min(15).max(100_000)).min(1).max(8).optional(),
      seed: z.string().min(1).max(200).optional(),
      fit: z.number().int().min(0).max(10_000).optional(),
      eval: z.number().int().min(0).max(10_000).optional(),
      draws: z.number().int().min(1).max(50).optional(),
      kMax: z.number().int().min(1).max(10_000).optional(),
      maxTokens: z.number().int().min(1).max(4096).optional(),
      threads: z.number().int().min(1).max(1024).optional(),
      gpu: z.enum(['auto', 'cuda', 'vulkan', 'metal', 'cpu']).optional(),
    })
    .strict()
    .refine((v) => v.preset === undefined || v.preset === 'quick' || (v.fit === undefined && v.eval === undefined), {
      message: 'the standard and full presets set the fitting and evaluation sizes (8 / 40 and 80 / 320 per family); give the preset or fit/eval, not both',
    }),
  /** The open project's demo story (null record when it was not made by `lots demo`). */
  getDemo: none,
  /** The demo's one-page HTML report (the same charts as the Demo view). */
  renderDemoReport: none,
  /** Copies the bundled sample project into the user's data folder and opens the copy. */
  openSampleProject: none,
} as const;

export type ApiMethodName = keyof typeof apiInputSchemas;
export type ApiInput<M extends ApiMethodName> = z.input<(typeof apiInputSchemas)[M]>;
export type ApiParsedInput<M extends ApiMethodName> = z.output<(typeof apiInputSchemas)[M]>;
