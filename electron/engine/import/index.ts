export { emptySummary, readTraceFile, type ReadSummary, type ReadEvent, type ReadOptions, type ReadProgress } from './read-trace-file';
export { loadBfclJoin } from './bfcl-join';
export { assertRegularFile } from './regular-file';
export { importCancelled } from './cancelled';
