// Shared tail of every record parser: assemble drafts, turn problems into `file:line: reason`.
import type { LineError } from '../trace/validate';
import { assembleTrace } from './assemble';
import type { TraceDraft } from './conversation';
import type { ImportOptions, RecordOutcome, SourceRecord } from './types';

export function lineError(options: ImportOptions, line: number, message: string): LineError {
  return { file: options.file ?? '', line, message };
}

export function failed(record: SourceRecord, options: ImportOptions, message: string): RecordOutcome {
  return { traces: [], errors: [lineError(options, record.line, message)] };
}

export function fromDraft(draft: TraceDraft | string, record: SourceRecord, options: ImportOptions): RecordOutcome {
  if (typeof draft === 'string') return failed(record, options, draft);
  const built = assembleTrace(draft);
  if (!built.ok) return failed(record, options, built.message);
  return { traces: [{ trace: built.trace, line: record.line }], errors: [] };
}
