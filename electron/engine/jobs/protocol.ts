// What a job is and what it says: the requests the job worker takes (score | faithfulness | sweep | demo), the
// events it streams back, and the commands it obeys. The one status type is the API's (`JobStatus`);
// a job in a process reports every status but `interrupted`, which is what the engine concludes when
// a job's process is gone (see center.ts).
import type { JobStatus, JobStep } from '../../../shared/api/types';
import type { FamilyName } from '../../../shared/benchmark/family';
import type { InterventionKind } from '../../../shared/trace/interventions';
import type { ScoreSpan, UnscoredReason } from '../../../shared/project/scores';
import type { GpuChoice } from '../llama/runtime';
import type { RenderFormat } from '../scoring/chat-template';
import type { RemoteScoringSpec } from '../scoring/remote/client';

/** What a running (or queued, or finished) job can report about itself. */
export type RunStatus = Exclude<JobStatus, 'interrupted'>;

/** Everything a scoring job needs; stored in the job state file so an interrupted job can be resumed. */
export interface ScoreJobSpec {
  jobId: string;
  project: string;
  model: string;
  intervention: InterventionKind;
  span: ScoreSpan;
  gpu: GpuChoice;
  /** Only these tasks (default: every trace of the project). */
  tasks?: string[];
  /** Traces scored in parallel on one context (default 1: scoring/scorer.ts). */
  parallel?: number;
  /** CPU threads of the scoring context (default: every math core but one, llama/load.ts). */
  threads?: number;
  /** Tokens per sequence (default: fitted to the longest trace). */
  contextSize?: number;
  format?: RenderFormat;
  /** Traces read into memory at a time, at most: a count and bytes of trace lines (default score-job.ts' SCORE_BATCH). */
  batch?: { traces?: number; bytes?: number };
  /** Score on scoring servers instead of in this process (../scoring/remote); `model` is then read only for
   * its chat template and builtin tokens (a vocabulary-only load: no weights). */
  remote?: RemoteScoringSpec;
}

/** The faithfulness check of a stored run's ranking: `model` must be the file the run was scored with. */
export interface FaithfulnessJobSpec {
  jobId: string;
  project: string;
  model: string;
  gpu: GpuChoice;
  /** Only these tasks (default: every task the run scored). */
  tasks?: string[];
  parallel?: number;
  contextSize?: number;
  format?: RenderFormat;
  /** The run whose ranking is checked (its intervention and span are the run key's). */
  run: string;
  /** Budgets to measure. */
  ks: number[];
  /** Random K-subsets per request. */
  draws: number;
  seed?: number;
}

/** A budget sweep of one task of a benchmark project. */
export interface SweepJobSpec {
  jobId: string;
  project: string;
  task: string;
  model: string;
  run?: string;
  baselines?: boolean;
  gpu?: GpuChoice;
}

/** `lots demo` as a job: runDemo's options, resolved (a folder, a model file). The same spec resumes. */
export interface DemoJobSpec {
  jobId: string;
  out: string;
  modelPath: string;
  preset: 'quick' | 'standard' | 'full';
  families?: FamilyName[];
  registries?: number[];
  seed?: string;
  fit?: number;
  eval?: number;
  draws?: number;
  kMax?: number;
  maxTokens?: number;
  threads?: number;
  gpu?: GpuChoice;
  /** The equivalent `lots demo` command line, recorded in demo.json. */
  command: string;
}

/** A demo's options as the API resolves them (service.ts startDemo): the spec before it has a job id and
 * the command line made from these options. The one declaration of the demo's options and their types. */
export type DemoOptionsSpec = Omit<DemoJobSpec, 'jobId' | 'command'>;

/** What the job worker is asked to run. */
export type JobRequest =
  | { kind: 'score'; spec: ScoreJobSpec }
  | { kind: 'faithfulness'; spec: FaithfulnessJobSpec }
  | { kind: 'sweep'; spec: SweepJobSpec }
  | { kind: 'demo'; spec: DemoJobSpec };

export type JobRequestKind = JobRequest['kind'];

/** The progress every job reports: how far, of how much, and a status line. */
export interface BaseProgress {
  done: number;
  total: number;
  message?: string;
}

/** A scoring job's (and a faithfulness check's) progress. */
export interface JobProgress extends BaseProgress {
  /** Traces with a stored score (including those scored before a resume). */
  done: number;
  /** Traces scored by this run (not skipped as already present). */
  scoredNow: number;
  /** Already stored when the job started (a resume). */
  skipped: number;
  /** Traces left out because no turn has an answer yet (requests not served): scoring them would only
   * add rows that count the tools as exposed with nothing measured. Not part of `total`. */
  unanswered?: number;
  /** Of `unanswered`: traces that were answered (they record steps) but whose every turn ends with an empty
   * message, so nothing in them can ever be scored; serving them again would not help. */
  emptyAnswers?: number;
  /** Of the traces scored now: turns whose frozen target is a call (scored as the serialized call). */
  callTurns?: number;
  /** Of the traces scored now: turns that could not be scored, by reason. */
  unscoredTurns?: Partial<Record<UnscoredReason, number>>;
  tokensPerSecond?: number;
  etaSeconds?: number;
  /** Progress inside the traces being scored (a long multi-turn trace takes minutes): how many are in
   * flight and their sequences (a base or an intervention at one turn) done of their plans. */
  inFlight?: InFlight;
}

/** Traces being scored and their sequences done of their plans. */
export interface InFlight {
  traces: number;
  sequencesDone: number;
  sequences: number;
}

export interface JobFailure {
  code: string;
  message: string;
}

/** Job → whoever started it. */
export type JobEvent<P extends BaseProgress = JobProgress> =
  | { type: 'status'; status: RunStatus; message?: string }
  | { type: 'progress'; progress: P }
  | { type: 'finished'; status: 'done' | 'cancelled'; progress: P }
  | { type: 'failed'; error: JobFailure; progress?: P };

/** A demo's progress: `done`/`total` count its steps; each step has its own counts. */
export interface DemoProgress extends BaseProgress {
  steps: JobStep[];
  /** The latest lines runDemo logged (what `lots demo` prints). */
  log: string[];
}

/** The progress type of each kind of request. */
export interface ProgressOf {
  score: JobProgress;
  faithfulness: JobProgress;
  sweep: BaseProgress;
  demo: DemoProgress;
}

/** Parent → job worker. */
export type JobCommand = { type: 'start'; request: JobRequest } | { type: 'pause' } | { type: 'resume' } | { type: 'cancel' };

/**
 * Why traces were left out, in words: requests nobody answered yet (serve them), and traces that were
 * answered but end every turn with an empty message (nothing to score, ever; serving would not help).
 */
export function unansweredNote(unanswered: number, emptyAnswers: number): string {
  const waiting = unanswered - emptyAnswers;
  const parts: string[] = [];
  if (waiting > 0)
    parts.push(`${waiting} ${waiting === 1 ? 'trace has' : 'traces have'} no answer yet and ${waiting === 1 ? 'is' : 'are'} skipped (serve them first)`);
  if (emptyAnswers > 0)
    parts.push(
      `${emptyAnswers} ${emptyAnswers === 1 ? 'trace ends' : 'traces end'} every turn with an empty message and can never be scored (nothing to serve: the recorded answers are empty)`,
    );
  return parts.join('; ');
}
