// The contract every importer implements: records in, native traces and line-numbered problems out.
import type { Trace } from '../trace/schema';
import type { LineError } from '../trace/validate';

export const FORMAT_IDS = ['native', 'openai', 'anthropic', 'bfcl', 'otel', 'openinference', 'langfuse', 'gta', 'sharegpt', 'tau'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

/** One unit of input: a JSONL line, one element of a JSON array, or one value of a keyed JSON object. */
export interface SourceRecord {
  value: unknown;
  /** 1-based line where the record starts. */
  line: number;
  /** The key it had in a keyed document (GTA's `{"0": {...}}`), used as its id. */
  key?: string;
  /** Size in bytes (or characters) of the record's text, for memory accounting of span groups. */
  size?: number;
  /** Integers beyond 2^53 in it were read as marked text (number-range.ts); traces built from it are restored. */
  bigIntegers?: boolean;
}

/** A BFCL dataset entry and the function docs of its classes, joined to recover the menu and task. */
export interface BfclDatasetEntry {
  id: string;
  involved_classes?: string[];
  excluded_function?: string[];
  question?: unknown;
}

export interface BfclJoin {
  /** Dataset entries by id. */
  dataset?: ReadonlyMap<string, BfclDatasetEntry>;
  /** Function docs (raw BFCL shape) by class name. */
  functionDocs?: ReadonlyMap<string, readonly unknown[]>;
}

export interface ImportOptions {
  /** Shown in every LineError (`file:line: reason`). */
  file?: string;
  /** Dotted path to the task label in each record (`metadata.task`); overrides the format's own field. */
  taskField?: string;
  bfcl?: BfclJoin;
  /** The source path, for hints a record does not carry (BFCL's `result/<model>/…`). */
  sourcePath?: string;
}

/** Why a record looks like a format: a weight (higher = more specific) and a reason in words. */
export interface Recognition {
  score: number;
  reason: string;
}

/** A trace built from one record (or one span group), with the line it starts on. */
export interface ParsedTrace {
  trace: Trace;
  line: number;
}

export interface RecordOutcome {
  traces: ParsedTrace[];
  errors: LineError[];
}

/** A format whose records each hold whole traces. */
export interface RecordFormat {
  id: FormatId;
  kind: 'record';
  label: string;
  recognize(value: unknown): Recognition | null;
  parseRecord(record: SourceRecord, options: ImportOptions): RecordOutcome;
}

/** A format whose records hold spans that must be grouped by trace id before traces can be built. */
export interface SpanFormat {
  id: FormatId;
  kind: 'span';
  label: string;
  recognize(value: unknown): Recognition | null;
  /** Spans in one record; a record that holds a whole trace marks it `complete`. */
  spansOf(record: SourceRecord, options: ImportOptions): SpanExtraction;
  buildTrace(group: SpanGroup, options: ImportOptions): RecordOutcome;
}

export type TraceFormat = RecordFormat | SpanFormat;

/** A span normalised from OTLP, Phoenix or Langfuse; attributes flattened to dotted keys. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentId?: string;
  name: string;
  /** Start time in nanoseconds since the epoch (may lose sub-microsecond precision); NaN when unknown. */
  start: number;
  end: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  error: boolean;
  statusMessage?: string;
  line: number;
  /**
   * OTLP log records (the GenAI events `gen_ai.user.message`, `gen_ai.choice`, …) arrive as span records
   * holding only events; the trace builder merges them into the span with the same id, or into one span
   * per id when the spans were not exported.
   */
  fromLogs?: true;
  /** Langfuse observations carry input/output objects instead of attributes. */
  observation?: { type: string; input?: unknown; output?: unknown; metadata?: unknown; model?: string };
}

export interface SpanExtraction {
  spans: SpanRecord[];
  errors: LineError[];
  /** The record held every span of its traces (a Langfuse trace export): build without waiting. */
  complete?: boolean;
  /** Trace-level fields a span source may carry (Langfuse trace name, metadata, tags). */
  traceInfo?: Record<string, { metadata?: unknown; input?: unknown; output?: unknown; name?: string; raw?: unknown }>;
}

export interface SpanGroup {
  traceId: string;
  spans: SpanRecord[];
  /** First line any of its spans came from. */
  line: number;
  info?: { metadata?: unknown; input?: unknown; output?: unknown; name?: string; raw?: unknown };
}
