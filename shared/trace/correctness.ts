// Whether a trace's answers were right, from its turns' labels.
import type { Trace } from './schema';

/** Correct when every labelled turn is; wrong when any is wrong; null when no turn is labelled. */
export function correctness(trace: Trace): boolean | null {
  let labelled = false;
  for (const turn of trace.turns) {
    if (turn.correct === false) return false;
    if (turn.correct === true) labelled = true;
  }
  return labelled ? true : null;
}
