// The reading half of a project: what the Studio's views (views/) and the read model (read-model/) are
// given, so that the compiler refuses a write from them (docs/ARCHITECTURE.md: views read only; writes are
// use cases). A `ProjectStore` is one; it has every method named here and the writing ones besides.
import type { ProjectStore } from './project-store';
import type { StoreWarning } from './project-file';

type ReadMethods =
  | 'dir'
  | 'info'
  | 'refresh'
  | 'listTraces'
  | 'iterTraces'
  | 'traceInfos'
  | 'traceTasks'
  | 'traceBatches'
  | 'traceMenus'
  | 'toolDef'
  | 'getTrace'
  | 'getTraceHash'
  | 'traceCount'
  | 'readRoutes'
  | 'listScores'
  | 'listRuns'
  | 'hasScore'
  | 'readSpaces'
  | 'listSpaces'
  | 'readSweep'
  | 'listSweeps'
  | 'readDemo'
  | 'readFaithfulness'
  | 'readUpdates'
  | 'listUpdates'
  | 'readStream'
  | 'importSource'
  | 'listJobs'
  | 'readJob'
  | 'listGateways'
  | 'listActivity';

/**
 * A project store that can only be read: the lists and records of `ProjectStore`, and `refresh` (which
 * picks up what other processes wrote; it changes nothing on disk). No import, append, accept, write or
 * log, and no lock.
 */
export type ReadOnlyProjectStore = Pick<ProjectStore, ReadMethods> & {
  /** Files that could not be read when the project was opened. */
  readonly warnings: readonly StoreWarning[];
};
