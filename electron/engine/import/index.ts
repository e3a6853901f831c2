export { readTraceFile, DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_LINE_BYTES, type ReadSummary, type ReadEvent, type ReadOptions, type ReadProgress } from './read-trace-file';
export { loadBfclJoin } from './bfcl-join';
export { readLines, type RawLine } from './line-reader';
export { assertRegularFile } from './regular-file';
