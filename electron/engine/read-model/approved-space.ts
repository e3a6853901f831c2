// The approved space of a task is its latest accepted version: this is the one place that says so, so
// the Space view, exports, `lots space`, updates, the gateways and the benchmark (serve, evaluate, reuse)
// read it alike. `toolState` answers the
// question a gateway adapter asks per tool ("what state is tool X in for task T"), in the three states of
// shared/project/spaces.ts.
import { toolStateIn, type SpaceVersion, type TaskSpaces, type ToolState } from '../../../shared/project/spaces';
import type { ReadOnlyProjectStore } from '../store';

/** The approved space in a task's space record (its latest accepted version), or null while none is approved. */
export function approvedIn(spaces: TaskSpaces): SpaceVersion | null {
  return spaces.versions.at(-1) ?? null;
}

/** The task's approved space (its latest accepted version), or null while none is approved. */
export function approvedSpace(store: Pick<ReadOnlyProjectStore, 'readSpaces'>, task: string): SpaceVersion | null {
  return approvedIn(store.readSpaces(task));
}

/**
 * The state of `tool` in the task's approved space: pinned, deferred or hidden; null while the task has no
 * approved space (the caller decides what an unapproved task gets: a gateway passes the menu through).
 */
export function toolState(store: Pick<ReadOnlyProjectStore, 'readSpaces'>, task: string, tool: string): ToolState | null {
  const approved = approvedSpace(store, task);
  return approved ? toolStateIn(approved, tool) : null;
}
