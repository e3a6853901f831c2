// The whole shell (App) rendered at a route against the real engine service over the in-memory transport
// (harness.ts: JSON round trip, like the web host), on a real project folder built with the store's own
// API — so a view test sees what the engine answers and checks what an action did to the project, not
// what a fake was called with (docs/CONVENTIONS.md §9). A fault the real service will not produce (a
// locked project at the wrong moment, a transport error) is a `faults` override of one method, and the
// test says why.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { expect } from 'vitest';
import type { StudioApi } from '../../shared/api';
import type { SpaceVersion } from '../../shared/project/spaces';
import type { StoredScore } from '../../shared/project/scores';
import type { Trace } from '../../shared/trace/schema';
import { StudioService, type StudioService as Service } from '../../electron/engine/api';
import { ProjectStore, type ProjectStore as Store } from '../../electron/engine/store';
import { App } from '../../renderer/app/App';
import { StudioProvider } from '../../renderer/store/react';
import { connectEvents, createStudioStore, type StudioStore } from '../../renderer/store/store';
import type { Route } from '../../renderer/store/types';
import { makeLineTraces, toolName } from '../e2e/fixtures';
import { countingCalls, inMemoryApi, type InMemoryOptions } from './harness';

export const TASK = 'fx_settle';
/** The finance project's tools in ranking order; the last one is on every menu but never scored. */
export const TOOLS = [toolName(0), toolName(1), toolName(2), toolName(3), toolName(4)] as const;
/** The run the synthetic scores are stored under. */
export const RUN = 'import:synthetic';
/** Mean score of each ranked tool: three help (the proposal pins them), the fourth slightly hurts. */
const MEANS = [0.412, 0.187, 0.064, -0.011];

/** The run key of scores computed here with a model (hash of the model, intervention, span, prompt format). */
export const MODEL_RUN = '3f9a1c2e7b6d5a40|evidence|answer|ChatML';

/** Score rows with the means above (±0.02 around each), the last tool left unscored; with `model`, stored
 * as computed here with that model file (MODEL_RUN), else as imported (RUN). */
function financeScores(traces: Trace[], model?: string): StoredScore[] {
  const run = model !== undefined ? MODEL_RUN : RUN;
  return traces.map((t, r) => ({
    key: `${run}|${t.id}`,
    run,
    ...(model !== undefined ? { model } : {}),
    trace: t.id,
    task: t.task,
    exposed: t.tools.map((x) => x.name),
    scores: Object.fromEntries(MEANS.map((m, c) => [TOOLS[c]!, Number((m + ((r % 5) - 2) * 0.01).toFixed(5))])),
    createdAt: new Date(2026, 10, 30).toISOString(),
  }));
}

/**
 * A project "finance" with one scored task: fx_settle, 24 requests, each served with the same five tools;
 * four are scored (the proposal pins the three that help and defers the fourth), the fifth never is.
 * The answers: 18 right, 5 wrong (every request i with i % 5 === 3), the first one unlabelled.
 */
export function financeProject(options: { otherTask?: string; scored?: boolean; model?: string; answers?: string } = {}): {
  dir: string;
  project: Store;
  traces: Trace[];
} {
  const dir = mkdtempSync(join(tmpdir(), 'lots-views-'));
  const project = ProjectStore.create(dir, 'finance');
  const traces = makeLineTraces({ task: TASK, requests: 24, tools: TOOLS.length });
  delete traces[0]!.turns[0]!.correct; // one answer nobody labelled (19 right, 5 wrong before)
  // `answers`: every recorded answer replaced (e.g. '' for a task none of whose requests can be scored).
  if (options.answers !== undefined) for (const t of traces) for (const turn of t.turns) turn.answer = options.answers;
  project.addTraces(traces, 'fx_settle.jsonl');
  if (options.scored !== false) project.appendScores(financeScores(traces, options.model));
  // A second task, imported but never scored (so it has no space to approve).
  if (options.otherTask !== undefined) project.addTraces(makeLineTraces({ task: options.otherTask, requests: 6, tools: 3 }), `${options.otherTask}.jsonl`);
  return { dir, project, traces };
}

/** A file standing for a model at `name` (the engine checks that a model path is a file before a job starts). */
export function modelFile(name = 'qwen2.5-0.5b-instruct-q4_k_m.gguf'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lots-views-model-')), name);
  writeFileSync(path, 'GGUF');
  return path;
}

/** An empty project "finance" (no traces yet); returns its folder. */
export function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lots-views-empty-'));
  ProjectStore.create(dir, 'finance');
  return dir;
}

/** A service over the project in `dir`, with its own config folder (a new empty one unless `configDir` is given). */
export function serviceFor(dir: string | null, configDir: string = mkdtempSync(join(tmpdir(), 'lots-views-cfg-'))): Service {
  const service = new StudioService({ transport: 'web', configDir });
  if (dir !== null) service.setProject(ProjectStore.open(dir));
  return service;
}

/** Approve the task's proposal as it stands, as the Space view's "Approve" does (through the service). */
export async function approveProposal(dir: string, task: string = TASK): Promise<SpaceVersion> {
  const api = inMemoryApi(serviceFor(dir));
  const space = await api.getSpaces({ task });
  const { tools, deferred, rule } = space.proposal;
  return api.acceptSpace({ task, tools, deferred, rule });
}

export interface Studio extends RenderResult {
  service: Service;
  /** The API the page talks to (the in-memory one, with any fault overrides). */
  api: StudioApi;
  /** How many times the page (or the test) called each method: what the page asked the engine for. */
  calls: Map<string, number>;
  store: StudioStore;
  /** The project folder, null when none is open. */
  dir: string | null;
  /** The open project read back from its folder (a fresh handle: what an action stored is on disk). */
  project: () => Store;
}

export interface StudioOptions {
  /** The project to open: a folder made by a builder; `null` opens none (the start screen). */
  dir?: string | null;
  /** Served as the web host serves its view-only link (harness.ts inMemoryApi). */
  viewOnly?: boolean;
  /** Methods that answer with a fault the real service will not produce here (the test says why). */
  faults?: Partial<StudioApi>;
  /** The service's config folder (e.g. one holding the state of a demo job that was running when the Studio
   * was closed); a new empty one by default. */
  configDir?: string;
  /** Run against the service before the page boots (e.g. open and close a project so it is a recent one). */
  before?: (api: StudioApi, service: Service) => Promise<void>;
}

/** The in-memory API over `service` with `faults` replacing single methods. */
export function apiWithFaults(service: Service, faults: Partial<StudioApi> = {}, options: InMemoryOptions = {}): StudioApi {
  return { ...inMemoryApi(service, options), ...faults };
}

/** The shell at `route` against the real service, booted as main.tsx boots the page; resolves once the view is drawn. */
export async function renderStudio(route: Route, options: StudioOptions = {}): Promise<Studio> {
  const dir = options.dir === undefined ? financeProject().dir : options.dir;
  const service = serviceFor(dir, options.configDir);
  const { api, calls } = countingCalls(apiWithFaults(service, options.faults, { viewOnly: options.viewOnly === true }));
  await options.before?.(inMemoryApi(service), service);
  const store = createStudioStore(api, { route });
  // The engine's events reach the store as on the page (renderer/main.tsx); the service is this test's own.
  connectEvents(api, store, () => {});
  const result = render(
    <StudioProvider store={store} api={api}>
      <App />
    </StudioProvider>,
  );
  await act(() => store.getState().boot());
  await waitFor(() => expect(screen.getByTestId(`view-${route.view}`)).toBeTruthy());
  const project = () => {
    if (dir === null) throw new Error('no project is open in this test');
    return ProjectStore.open(dir);
  };
  return { ...result, service, api, calls, store, dir, project };
}
