// Public surface of the importers.
export { detectFormat, type Detection, type DetectionResult } from './detect';
export { formatById, formatNames, resolveFormatName, TRACE_FORMATS } from './formats';
export { importText, parseRecords, type TextImport } from './import-text';
export { documentLayoutOf, documentRecords, jsonError, utf8Error } from './records';
export { ImportSession, type ImportEvent, type ImportStats, type SessionOptions } from './session';
export { DEFAULT_SPAN_BUDGET_BYTES } from './spans/grouper';
export { lookupPath } from './task';
export { BFCL_FUNC_DOC_FILES } from './bfcl';
export * from './types';
