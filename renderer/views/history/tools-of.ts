// The tools of a task's updates with a running score, ordered by their latest running score.
import type { TaskUpdates } from '../../../shared/project/updates';

/** Every tool with a running score, ordered by its latest running score. */
export function toolsOf(updates: TaskUpdates): string[] {
  const last = updates.batches.at(-1)!.running;
  return Object.keys(last).sort((a, b) => last[b]! - last[a]! || (a < b ? -1 : 1));
}
