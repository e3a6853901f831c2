// What the Studio shows of a task's history (issue: self-evolving spaces): the update batches with their
// running scores and proposals, the approved versions, and — for a benchmark stream — every arm batch by
// batch; and the comparison of two scoring runs' rankings.
import type { RankingComparison } from '../lots/compare';
import type { SpaceVersion } from '../project/spaces';
import type { StreamRecord, StreamTask } from '../project/streams';
import type { TaskUpdates } from '../project/updates';

export interface HistoryData {
  task: string;
  /** The update history (`lots update`, the Studio's "Fold new batches", or a benchmark stream); null before the first fold. */
  updates: TaskUpdates | null;
  /** The latest proposal with the approved version's pins and bans applied (empty before the first fold). */
  proposal: string[];
  /** Imports of the task not folded yet: waiting for scores. */
  waiting: { source: string; traces: number }[];
  /** Approved versions, oldest first. */
  versions: SpaceVersion[];
  /** The approved space (the latest accepted version: read-model/approved-space.ts says so), null while none is. */
  approved: SpaceVersion | null;
  /** The task's arms when the project holds a benchmark stream. */
  stream: {
    task: StreamTask;
    options: StreamRecord['options'];
    modelName: string;
    credited: StreamRecord['credited'];
    /** Where the stream was served before the one-sequence decode, the sentence that says so (decodeCaveat). */
    caveat: string | null;
  } | null;
}

export interface UpdateResult extends HistoryData {
  /** Batches folded by this call. */
  folded: number;
  refoldReason: string | null;
}

export interface RunComparison extends RankingComparison {
  task: string;
  runA: string;
  runB: string;
  modelA: string | null;
  modelB: string | null;
}
