export { ProjectStore, TraceImport, traceHash, taskFileName, PROJECT_FORMAT, PROJECT_VERSION } from './project-store';
export type { ImportSummary, ProjectInfo, ActivityEntry, StoreWarning } from './project-store';
export { JobStateSchema, JobStatusSchema } from './jobs';
export type { JobState, JobStatus } from './jobs';
export { ProjectLock, defaultLockWaitMs, setLockWaitReporter } from './lock';
export type { AcquireOptions, LockHolder, LockWait } from './lock';
