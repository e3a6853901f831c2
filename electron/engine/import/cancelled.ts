// The error a cancelled import rejects with: here, below both the import use case that throws it and the
// import job whose cancel() aborts with it (jobs never import use cases, docs/ARCHITECTURE.md).
import { ExpectedError } from '../../../shared/api/errors';

/** The error a cancelled import rejects with. */
export function importCancelled(what: string): ExpectedError {
  return new ExpectedError('CANCELLED', `import cancelled: nothing of ${what} was imported`);
}
