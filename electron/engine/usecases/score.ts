// Use case "score": the checks made before a scoring job starts, the same for `lots score` and the API's
// startScoring (the job itself runs in a worker: engine/scoring/jobs). A wrong path or an empty project
// is an error where the user asked, not a failed job later.
import { checkModelPath } from '../llama';
import type { ProjectStore } from '../store';
import { invalid } from '../../../shared/api/errors';

export function checkScoringRequest(store: ProjectStore, model: string): void {
  if (store.traceCount === 0)
    throw invalid(
      `the project ${store.dir} has no traces to score: import trace files first (the Studio's Import, or \`lots import <file> --project ${store.dir}\`)`,
    );
  checkModelPath(model);
}
