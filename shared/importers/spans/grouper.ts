// Group spans by trace id while reading, with bounded memory: groups stay open until the end of the
// input, or until the buffered span text passes `budgetBytes`, when the least recently extended group is
// built early. A span arriving for a trace that was already built is reported, not silently dropped.
import type { LineError } from '../../trace/validate';
import type { SpanExtraction, SpanGroup } from '../types';

export const DEFAULT_SPAN_BUDGET_BYTES = 64 * 1024 * 1024;

interface OpenGroup {
  group: SpanGroup;
  bytes: number;
}

export class SpanGrouper {
  private open = new Map<string, OpenGroup>();
  private built = new Set<string>();
  private buffered = 0;

  constructor(private readonly budgetBytes = DEFAULT_SPAN_BUDGET_BYTES) {}

  /** Add one record's spans; returns groups ready to build and problems with late spans. */
  add(extraction: SpanExtraction, recordBytes: number, file: string): { ready: SpanGroup[]; errors: LineError[] } {
    const ready: SpanGroup[] = [];
    const errors: LineError[] = [];
    const spans = extraction.spans;
    if (spans.length === 0) return { ready, errors };
    const perSpan = recordBytes / spans.length;
    const touched = new Set<string>();
    for (const span of spans) {
      if (this.built.has(span.traceId)) {
        errors.push({
          file,
          line: span.line,
          message: `span ${JSON.stringify(span.spanId)} of trace ${JSON.stringify(span.traceId)} comes after that trace was already built (its spans lie more than ${Math.round(this.budgetBytes / 1048576)} MB apart in the file); the trace was imported without it. Sort the file by trace id to keep each trace whole.`,
        });
        continue;
      }
      let g = this.open.get(span.traceId);
      if (!g) {
        g = { group: { traceId: span.traceId, spans: [], line: span.line }, bytes: 0 };
        this.open.set(span.traceId, g);
      } else {
        // Re-insert so Map order is least-recently-extended first.
        this.open.delete(span.traceId);
        this.open.set(span.traceId, g);
      }
      g.group.spans.push(span);
      g.bytes += perSpan;
      this.buffered += perSpan;
      touched.add(span.traceId);
    }
    for (const [traceId, info] of Object.entries(extraction.traceInfo ?? {})) {
      const g = this.open.get(traceId);
      if (g) g.group.info = info;
    }
    if (extraction.complete) for (const id of touched) ready.push(this.close(id));
    while (this.buffered > this.budgetBytes && this.open.size > 0) {
      const oldest = this.open.keys().next().value as string;
      ready.push(this.close(oldest));
    }
    return { ready, errors };
  }

  /** Every group still open, in the order their first span appeared. */
  finish(): SpanGroup[] {
    const rest = [...this.open.values()].map((g) => g.group).sort((a, b) => a.line - b.line);
    for (const g of rest) this.built.add(g.traceId);
    this.open.clear();
    this.buffered = 0;
    return rest;
  }

  private close(traceId: string): SpanGroup {
    const g = this.open.get(traceId)!;
    this.open.delete(traceId);
    this.buffered -= g.bytes;
    this.built.add(traceId);
    return g.group;
  }
}
