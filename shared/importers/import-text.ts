// Import a whole text in memory (tests, the browser build, small files): same records, detection and
// parsing as the streaming reader in the engine.
import type { LineError } from '../trace/validate';
import { documentLayoutOf, documentRecords, jsonError } from './records';
import { parseRecordText } from './number-range';
import { ImportSession, type ImportStats, type SessionOptions } from './session';
import type { FormatId, ParsedTrace } from './types';
import { normaliseLineBreaks } from '../trace/lines';

export interface TextImport {
  traces: ParsedTrace[];
  errors: LineError[];
  format?: FormatId;
  reason?: string;
  /** Set when nothing could be imported (format not recognised). */
  fatal?: string;
  stats: ImportStats;
}

export function importText(text: string, options: SessionOptions = {}): TextImport {
  const session = new ImportSession(options);
  const file = options.file ?? '';
  const out: TextImport = { traces: [], errors: [], stats: session.stats };
  const take = (events: ReturnType<ImportSession['push']>): void => {
    for (const e of events) {
      if (e.kind === 'trace') out.traces.push({ trace: e.trace, line: e.line });
      else if (e.kind === 'error') out.errors.push(e.error);
      else if (e.kind === 'format') {
        out.format = e.format;
        out.reason = e.reason;
      } else out.fatal = e.message;
    }
  };
  take(session.start());
  const body = normaliseLineBreaks(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const lines = body.split('\n');
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  const layout = documentLayoutOf(body, nonEmpty[0] ?? '', nonEmpty.length);
  if (layout) {
    const { records, errors } = documentRecords(body, layout, file);
    for (const error of errors) take(session.reject(error));
    for (const r of records) take(session.push(r));
  } else {
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i]!;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') continue;
      try {
        JSON.parse(line);
      } catch (e) {
        take(session.reject(jsonError(file, i + 1, e)));
        continue;
      }
      // Numbers a parse would change: big integers kept as text, the rest rejected (number-range.ts), as in the streaming reader.
      const parsed = parseRecordText(line, file, i + 1);
      if (!parsed.ok) {
        take(session.reject(parsed.error));
        continue;
      }
      take(session.push({ value: parsed.value, line: i + 1, size: line.length, ...(parsed.bigIntegers ? { bigIntegers: true } : {}) }));
    }
  }
  take(session.finish());
  return out;
}

/** The brief's shape for one format over given records: `{traces, errors}`, never throwing. */
export function parseRecords(
  format: FormatId,
  records: Array<{ value: unknown; line: number; key?: string }>,
  options: SessionOptions = {},
): { traces: ParsedTrace[]; errors: LineError[] } {
  const session = new ImportSession({ ...options, format });
  const traces: ParsedTrace[] = [];
  const errors: LineError[] = [];
  for (const r of records) {
    for (const e of session.push(r))
      if (e.kind === 'trace') traces.push({ trace: e.trace, line: e.line });
      else if (e.kind === 'error') errors.push(e.error);
  }
  for (const e of session.finish())
    if (e.kind === 'trace') traces.push({ trace: e.trace, line: e.line });
    else if (e.kind === 'error') errors.push(e.error);
  return { traces, errors };
}
