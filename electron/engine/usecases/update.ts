// The continual-update use case (paper §3, Appendix B.3, D.5), one function for the CLI (`lots update`)
// and the Studio: a task's imports are its batches, in import order; each batch that has score rows in the
// task's run folds its batch means into the running scores, and the rule proposes the next space. The
// proposal is stored with the history (updates/<task>.json) and shown against the approved version; it is
// never applied here — the operator approves it as any other proposal. The fold itself is
// read-model/updates.ts (`lots demo` folds its tasks with it too).
import { decodeCaveat } from '../../../shared/project/run-record';
import type { ProjectStore } from '../store';
import { ExpectedError } from '../../../shared/api/errors';
import type { ProjectIndex } from '../read-model/project-index';
import { withEdits } from '../read-model/proposal';
import { approvedIn } from '../read-model/approved-space';
import { foldTaskUpdates, unfoldedBatches, type TaskUpdateResult, type UpdateOptions } from '../read-model/updates';
import type { HistoryData } from '../../../shared/api/history';

export type { SkippedBatch, TaskUpdateResult, UpdateOptions, WaitingBatch } from '../read-model/updates';

/** Fold the new batches of one task, or of every task with scores. Writes updates/<task>.json. */
export function updateSpaces(store: ProjectStore, index: ProjectIndex, options: UpdateOptions = {}): TaskUpdateResult[] {
  index.sync();
  const tasks = options.task !== undefined ? [options.task] : index.tasks().filter((t) => index.runsOf(t).length > 0);
  if (options.task === undefined && tasks.length === 0)
    throw new ExpectedError(
      'NOT_FOUND',
      'no task of this project has scores yet: score its traces first (`lots score --project P`) or import scores (`lots scores import`)',
    );
  return tasks.map((task) => {
    const result = foldTaskUpdates(store, index, task, options);
    if (result.changed) store.writeUpdates(result.history);
    return result;
  });
}

/** What the Studio shows of a task's history: updates, proposal, unfolded imports, approved versions, stream arms. */
export function taskHistory(store: ProjectStore, task: string): HistoryData {
  const updates = store.readUpdates(task) ?? null;
  const spaces = store.readSpaces(task);
  const approved = approvedIn(spaces);
  const stream = store.readStream();
  const streamTask = stream?.tasks.find((t) => t.task === task);
  // A benchmark stream's history comes from its own batches; its project's imported requests are not batches.
  const waiting = stream ? [] : unfoldedBatches(store, task, updates ?? undefined);
  return {
    task,
    updates,
    proposal: withEdits(updates?.batches.at(-1)?.proposed ?? [], approved),
    waiting,
    versions: spaces.versions,
    approved,
    stream:
      stream && streamTask
        ? { task: streamTask, options: stream.options, modelName: stream.modelName, credited: stream.credited, caveat: decodeCaveat(stream) ?? null }
        : null,
  };
}
