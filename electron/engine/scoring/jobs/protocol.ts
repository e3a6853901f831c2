// Messages between a scoring job's runner (a child process) and whoever started it.
import type { InterventionKind } from '../../../../shared/trace/interventions';
import type { ScoreSpan } from '../../../../shared/project/scores';
import type { GpuChoice } from '../../llama/runtime';
import type { RenderFormat } from '../renderer';
import type { RemoteScoringSpec } from '../remote/client';

/** Everything a job needs; stored in the job state file so an interrupted job can be resumed. */
export interface ScoreJobSpec {
  jobId: string;
  project: string;
  model: string;
  intervention: InterventionKind;
  span: ScoreSpan;
  gpu: GpuChoice;
  /** Only these tasks (default: every trace of the project). */
  tasks?: string[];
  /** Traces scored in parallel on one context (default 4). */
  parallel?: number;
  /** Tokens per sequence (default: fitted to the longest trace). */
  contextSize?: number;
  format?: RenderFormat;
  /** Score on scoring servers instead of in this process (../remote); `model` is then read only for
   * its chat template and builtin tokens (a vocabulary-only load: no weights). */
  remote?: RemoteScoringSpec;
  /** Instead of scoring, check the faithfulness of a stored run's ranking (`model` must be the file
   * the run was scored with; `intervention` and `span` are the run's). */
  check?: FaithfulnessJobOptions;
}

export interface FaithfulnessJobOptions {
  kind: 'faithfulness';
  run: string;
  /** Budgets to measure. */
  ks: number[];
  /** Random K-subsets per request. */
  draws: number;
  seed?: number;
}

export type JobStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface JobProgress {
  /** Traces with a stored score (including those scored before a resume). */
  done: number;
  total: number;
  /** Traces scored by this run (not skipped as already present). */
  scoredNow: number;
  /** Already stored when the job started (a resume). */
  skipped: number;
  /** Traces left out because no turn has an answer yet (requests not served): scoring them would only
   * add rows that count the tools as exposed with nothing measured. Not part of `total`. */
  unanswered?: number;
  tokensPerSecond?: number;
  etaSeconds?: number;
  message?: string;
}

export interface JobFailure {
  code: string;
  message: string;
}

/** Runner → parent. */
export type JobEvent =
  | { type: 'status'; status: JobStatus; message?: string }
  | { type: 'progress'; progress: JobProgress }
  | { type: 'finished'; status: 'done' | 'cancelled'; progress: JobProgress }
  | { type: 'failed'; error: JobFailure; progress?: JobProgress };

/** Parent → runner. */
export type JobCommand = { type: 'start'; spec: ScoreJobSpec } | { type: 'pause' } | { type: 'resume' } | { type: 'cancel' };
