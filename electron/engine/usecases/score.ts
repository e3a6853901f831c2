// Use case "score": the one place a scoring job's spec is built and checked, for `lots score` and the
// API's startScoring alike (the job itself runs in a worker: engine/jobs/score-job.ts). One set of
// defaults; a wrong path or an empty project is an error where the user asked, not a failed job later.
import { resolve } from 'node:path';
import type { InterventionKind } from '../../../shared/trace/interventions';
import type { ScoreSpan } from '../../../shared/project/scores';
import { checkModelPath, type GpuChoice } from '../llama';
import type { ProjectStore } from '../store';
import type { ScoreJobSpec } from '../jobs/protocol';
import type { RenderFormat } from '../scoring/chat-template';
import type { RemoteScoringSpec } from '../scoring/remote/client';
import { invalid } from '../../../shared/api/errors';
import type { ScoringServerSettings } from '../../../shared/api/model-types';
import { checkKeyEnvAllowed, remoteSpecOf } from '../user-data/scoring-server';

/** What a score job does when the request does not say. */
export const SCORE_DEFAULTS = { intervention: 'evidence', span: 'answer', gpu: 'auto', format: 'auto' } as const satisfies {
  intervention: InterventionKind;
  span: ScoreSpan;
  gpu: GpuChoice;
  format: RenderFormat;
};

export interface ScoreRequest {
  /** The GGUF file (resolved against the working folder). */
  model: string;
  intervention?: InterventionKind;
  span?: ScoreSpan;
  gpu?: GpuChoice;
  /** Only traces of these tasks; none or empty: every trace. */
  tasks?: readonly string[];
  parallel?: number;
  threads?: number;
  contextSize?: number;
  format?: RenderFormat;
  remote?: RemoteScoringSpec;
}

export function checkScoringRequest(store: ProjectStore, model: string): void {
  if (store.traceCount === 0)
    throw invalid(
      `the project ${store.dir} has no traces to score: import trace files first (the Studio's Import, or \`lots import <file> --project ${store.dir}\`)`,
    );
  checkModelPath(model);
}

/** The checked spec of a score job on `store` (the caller gives it its id, or the queue does). */
export function scoreJobSpec(store: ProjectStore, request: ScoreRequest): Omit<ScoreJobSpec, 'jobId'> {
  const model = resolve(request.model);
  checkScoringRequest(store, model);
  const format = request.format ?? SCORE_DEFAULTS.format;
  return {
    project: store.dir,
    model,
    intervention: request.intervention ?? SCORE_DEFAULTS.intervention,
    span: request.span ?? SCORE_DEFAULTS.span,
    gpu: request.gpu ?? SCORE_DEFAULTS.gpu,
    ...(request.tasks?.length ? { tasks: [...request.tasks] } : {}),
    ...(request.parallel !== undefined ? { parallel: request.parallel } : {}),
    ...(request.threads !== undefined ? { threads: request.threads } : {}),
    ...(request.contextSize !== undefined ? { contextSize: request.contextSize } : {}),
    ...(format !== 'auto' ? { format } : {}),
    ...(request.remote ? { remote: request.remote } : {}),
  };
}

/** The Studio's score request: the same fields, and where the log-probs come from instead of a remote spec. */
export interface StudioScoreRequest extends Omit<ScoreRequest, 'remote'> {
  /** This machine (the default), or the saved scoring server(s): the same job with them as its remote spec. */
  backend?: 'local' | 'server';
}

/**
 * The saved scoring-server settings as a score job's remote spec: none saved is INVALID_INPUT (saying where
 * to set them); a key variable the Studio may not send is FORBIDDEN (settings saved by hand or by an older
 * version may name any variable: the rule of checkScoringServer holds for jobs too).
 */
export function savedServerRemote(saved: ScoringServerSettings | null, allowKeyEnv: readonly string[] = []): RemoteScoringSpec {
  if (!saved) throw invalid('no scoring server is set: enter its URL on the Models view (Scoring server) and press Check, or score on this machine');
  if (saved.apiKeyEnv !== undefined) checkKeyEnvAllowed(saved.apiKeyEnv, allowKeyEnv);
  return remoteSpecOf(saved);
}

/**
 * The checked spec of the Studio's score job (the API's startScoring): the project and model checked first,
 * then the saved server when asked for; the rest is scoreJobSpec's, as for `lots score` (whose
 * `--backend … --endpoint …` give the remote spec directly, from the user's own shell).
 */
export function studioScoreJobSpec(
  store: ProjectStore,
  request: StudioScoreRequest,
  saved: () => ScoringServerSettings | null,
  allowKeyEnv: readonly string[] = [],
): Omit<ScoreJobSpec, 'jobId'> {
  checkScoringRequest(store, resolve(request.model));
  const { backend, ...rest } = request;
  return scoreJobSpec(store, { ...rest, ...(backend === 'server' ? { remote: savedServerRemote(saved(), allowKeyEnv) } : {}) });
}
