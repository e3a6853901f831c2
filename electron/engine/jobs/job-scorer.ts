// What a scoring job scores with: the local llama.cpp model (score-job.ts) or scoring servers
// (remote-job.ts). The job itself — which traces are pending, the store, progress, pause and
// cancel — is the same for both.
import type { Token } from 'node-llama-cpp';
import type { Trace } from '../../../shared/trace/schema';
import type { TraceResult } from '../scoring/scorer';
import type { PlanProgress } from '../scoring/trace-scores';

export interface JobScorer {
  /** The run key (model identity | intervention | span | format). */
  run: string;
  /** Stored with each score: the model file, or the backend and served model. */
  model: string;
  modelName: string;
  /** The renderer's format. */
  format: string;
  /** One token's text for the inspector's per-token view. */
  piece(token: Token): string;
  /**
   * Called before each scoring pass with every trace the pass will score (read again on each call, one at a
   * time); `score` is then called batch by batch. The local backend fits its context size here.
   */
  prepare?(pending: () => Iterable<Trace>): void;
  /** Score `traces` (one batch), handing each result over as it finishes; stops taking traces once `shouldStop`. */
  score(
    traces: readonly Trace[],
    shouldStop: () => boolean,
    onTrace: (result: TraceResult) => void | Promise<void>,
    /** Progress inside a trace, after each of its sequences (the local backend; a server reports per trace). */
    onSequence?: (trace: Trace, progress: PlanProgress) => void,
  ): Promise<{ stopped: boolean }>;
  /** Said once the job is done (e.g. where the traces went). */
  summary?(): string;
  dispose(): Promise<void>;
}
