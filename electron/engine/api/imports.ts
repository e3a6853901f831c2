// The API's import of one source (what tests/faults drive directly): the use case of
// engine/usecases/import-traces.ts, answering with the report the API returns.
import type { ImportFileReport } from '../../../shared/api/types';
import type { ProjectStore } from '../store';
import { importSource as importOne, type ImportSourceOptions, type TraceSource } from '../usecases/import-traces';

export { importCancelled } from '../import';
export { safeUploadName, sourcesOf, type ImportSourceOptions, type TraceSource } from '../usecases/import-traces';

export async function importSource(store: ProjectStore, source: TraceSource, options: ImportSourceOptions = {}): Promise<ImportFileReport> {
  return (await importOne(store, source, options)).report;
}
