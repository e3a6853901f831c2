// One import, record by record: detect the format from the first records (unless it is given), parse
// each record, group spans by trace, and keep the counts a summary needs. Pure and incremental, so the
// streaming file reader (engine) and in-memory callers (tests, the browser build) share it.
import type { Pairing, Trace } from '../trace/schema';
import type { LineError } from '../trace/validate';
import { detectFormat } from './detect';
import { formatById } from './formats';
import { DEFAULT_SPAN_BUDGET_BYTES, SpanGrouper } from './spans/grouper';
import { malformedToolName } from './tools';
import { restoreBigIntegers } from './number-range';
import { chainLink, ResponsesChains } from './responses-chain';
import { guessTaskField } from './task';
import type { FormatId, ImportOptions, RecordOutcome, SourceRecord, SpanGroup, TraceFormat } from './types';
import { depthOf, MAX_DEPTH } from './values';

export type ImportEvent =
  | { kind: 'format'; format: FormatId; reason: string; detected: boolean }
  | { kind: 'trace'; trace: Trace; line: number }
  | { kind: 'error'; error: LineError }
  /** Nothing more can be imported from this input (the format could not be recognised). */
  | { kind: 'fatal'; message: string };

export interface SessionOptions extends ImportOptions {
  format?: FormatId | 'auto';
  /** Records buffered to detect the format (default 32). */
  sniffRecords?: number;
  /** Bytes of span records kept open while grouping spans by trace (default 64 MiB). */
  spanBudgetBytes?: number;
}

export interface ImportStats {
  records: number;
  traces: number;
  rejected: number;
  pairing: Record<Pairing, number>;
  /** Traces per task label; unlabelled traces are counted under the empty string. */
  tasks: Map<string, number>;
  /** Turns with no frozen target (no final assistant text, no final call): not scoreable. */
  unansweredTurns: number;
  /** Turns whose last assistant message is a call: the serialized call is their frozen target (paper B.2). */
  callTargetTurns: number;
  /** Without --task-field: the field the first records seem to keep a task label in (a hint for traces left without a task). */
  taskFieldGuess?: string;
  /** Calls to a tool name no API accepts (a chat-template token in it, `ls<|channel|>commentary`): flagged, kept off inferred menus. */
  malformedToolCalls: number;
  /** Records read into another record's trace: a Responses chain's earlier responses, a background response's later retrievals. */
  foldedRecords: number;
}

export class ImportSession {
  readonly stats: ImportStats = {
    records: 0,
    traces: 0,
    rejected: 0,
    pairing: { id: 0, position: 0, 'name-order': 0 },
    tasks: new Map(),
    unansweredTurns: 0,
    callTargetTurns: 0,
    malformedToolCalls: 0,
    foldedRecords: 0,
  };
  private fmt: TraceFormat | undefined;
  /** Records (and read errors, to keep line order) held back until the format is known. */
  private sniffed: Array<SourceRecord | { error: LineError }> = [];
  private dead = false;
  /** Some record held integers beyond 2^53 read as marked text: traces are restored before they leave. */
  private bigIntegers = false;
  /** OpenAI Responses records, held until the file ends so chains (previous_response_id) can be stitched. */
  private readonly chains = new ResponsesChains();
  private readonly grouper: SpanGrouper;
  private readonly file: string;

  constructor(private readonly options: SessionOptions = {}) {
    this.file = options.file ?? '';
    this.grouper = new SpanGrouper(options.spanBudgetBytes ?? DEFAULT_SPAN_BUDGET_BYTES);
    if (options.format && options.format !== 'auto') this.fmt = formatById(options.format);
  }

  get format(): FormatId | undefined {
    return this.fmt?.id;
  }

  /** True once the input was found unreadable as a whole; further records are ignored. */
  get failed(): boolean {
    return this.dead;
  }

  start(): ImportEvent[] {
    return this.fmt ? [{ kind: 'format', format: this.fmt.id, reason: `given with --format ${this.fmt.id}`, detected: false }] : [];
  }

  push(record: SourceRecord): ImportEvent[] {
    if (this.dead) return [];
    this.stats.records++;
    if (record.bigIntegers) this.bigIntegers = true;
    if (depthOf(record.value) > MAX_DEPTH) {
      return this.rejectCounted({
        file: this.file,
        line: record.line,
        message: `the record is nested more than ${MAX_DEPTH} levels deep; no trace format nests that far, so it was not read`,
      });
    }
    if (!this.fmt) {
      this.sniffed.push(record);
      if (this.sniffed.filter((r) => !('error' in r)).length < (this.options.sniffRecords ?? 32)) return [];
      return this.detect();
    }
    return this.parse(record);
  }

  /** A record that could not even be read (bad JSON, invalid UTF-8, too long). */
  reject(error: LineError): ImportEvent[] {
    if (this.dead) return [];
    this.stats.records++;
    if (!this.fmt) {
      this.sniffed.push({ error });
      // Bounded: a file of nothing but bad lines must not pile its errors up in memory.
      return this.sniffed.length >= 4096 ? this.detect() : [];
    }
    return this.rejectCounted(error);
  }

  finish(): ImportEvent[] {
    const events: ImportEvent[] = [];
    if (!this.fmt && !this.dead) {
      if (this.sniffed.length === 0) return events;
      events.push(...this.detect());
    }
    if (this.fmt?.kind === 'span') events.push(...this.buildGroups(this.grouper.finish()));
    if (this.chains.size > 0) {
      for (const r of this.chains.finish()) events.push(...this.parse(r, true));
      this.stats.foldedRecords = this.chains.folded;
    }
    return events;
  }

  private detect(): ImportEvent[] {
    const buffered = this.sniffed;
    this.sniffed = [];
    const records = buffered.filter((r): r is SourceRecord => !('error' in r));
    const readErrors = (): ImportEvent[] => buffered.flatMap((r) => ('error' in r ? this.rejectCounted(r.error) : []));
    // Nothing readable yet: report the bad lines; detection waits for a readable record.
    if (records.length === 0) return readErrors();
    const result = detectFormat(records.map((r) => r.value));
    if (!result.ok) {
      this.dead = true;
      const events = readErrors();
      this.stats.rejected += records.length;
      return [...events, { kind: 'fatal', message: `${this.file ? `${this.file}: ` : ''}${result.message}` }];
    }
    this.fmt = formatById(result.detection.format);
    this.guessTask(records);
    const events: ImportEvent[] = [{ kind: 'format', format: this.fmt.id, reason: result.detection.reason, detected: true }];
    for (const r of buffered) events.push(...('error' in r ? this.rejectCounted(r.error) : this.parse(r)));
    return events;
  }

  private guessTask(records: readonly SourceRecord[]): void {
    if (this.options.taskField) return;
    const guess = guessTaskField(records.map((r) => r.value));
    if (guess) this.stats.taskFieldGuess = guess;
  }

  private parse(record: SourceRecord, held = false): ImportEvent[] {
    const fmt = this.fmt!;
    if (!held && fmt.id === 'openai') {
      const link = chainLink(record);
      if (link && this.chains.hold(link)) return [];
    }
    try {
      if (fmt.kind === 'record') return this.outcome(fmt.parseRecord(record, this.options));
      const extraction = fmt.spansOf(record, this.options);
      const events: ImportEvent[] = extraction.errors.map((error) => this.countReject(error));
      const { ready, errors } = this.grouper.add(extraction, record.size ?? 0, this.file);
      for (const error of errors) events.push(this.countReject(error));
      events.push(...this.buildGroups(ready));
      return events;
    } catch (e) {
      return this.rejectCounted({
        file: this.file,
        line: record.line,
        message: `internal error while reading this record (a bug, please report it): ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }

  private buildGroups(groups: SpanGroup[]): ImportEvent[] {
    const fmt = this.fmt;
    if (!fmt || fmt.kind !== 'span') return [];
    const events: ImportEvent[] = [];
    for (const g of groups) {
      try {
        events.push(...this.outcome(fmt.buildTrace(g, this.options)));
      } catch (e) {
        events.push(
          this.countReject({
            file: this.file,
            line: g.line,
            message: `internal error while rebuilding trace ${JSON.stringify(g.traceId)} (a bug, please report it): ${e instanceof Error ? e.message : String(e)}`,
          }),
        );
      }
    }
    return events;
  }

  private outcome(o: RecordOutcome): ImportEvent[] {
    const events: ImportEvent[] = [];
    for (const error of o.errors) events.push(this.countReject(error));
    for (const t of o.traces) {
      let trace = t.trace;
      if (this.bigIntegers) {
        const restored = restoreBigIntegers(trace);
        if (!restored.ok) {
          events.push(
            this.countReject({
              file: this.file,
              line: t.line,
              message: `${restored.path}: the number ${restored.literal} is an integer beyond ±9007199254740991, which cannot be stored exactly, and it is part of a call's arguments or a tool's schema, where turning it into text would change the call; the record is rejected — write the number as a string ("${restored.literal}") in the source to keep it exactly, and import again`,
            }),
          );
          continue;
        }
        trace = restored.value;
      }
      this.count(trace);
      events.push({ kind: 'trace', trace, line: t.line });
    }
    return events;
  }

  private count(trace: Trace): void {
    this.stats.traces++;
    const task = trace.task ?? '';
    this.stats.tasks.set(task, (this.stats.tasks.get(task) ?? 0) + 1);
    for (const turn of trace.turns) {
      if (turn.target === 'call') this.stats.callTargetTurns++;
      else if (turn.answer === '') this.stats.unansweredTurns++;
      for (const s of turn.steps) {
        if (s.kind === 'observation') this.stats.pairing[s.pairing]++;
        else if (s.kind === 'call') for (const c of s.calls) if (malformedToolName(c.name)) this.stats.malformedToolCalls++;
      }
    }
  }

  private rejectCounted(error: LineError): ImportEvent[] {
    return [this.countReject(error)];
  }

  private countReject(error: LineError): ImportEvent {
    this.stats.rejected++;
    return { kind: 'error', error };
  }
}
