// Spans out of their containers: OTLP JSON (file exporter lines or Phoenix's otlp-json download, camelCase
// or snake_case; logs exports with the GenAI events too), Phoenix span JSONL, and Langfuse exports (trace JSON, observation rows, API pages).
import type { LineError } from '../../trace/validate';
import type { ImportOptions, SourceRecord, SpanExtraction, SpanRecord } from '../types';
import { arr, idOf, isObj, str, tryJson, typeName, type Obj } from '../values';
import { anyValue, flattenAttributes, keyValues } from './attributes';

function err(options: ImportOptions, line: number, message: string): LineError {
  return { file: options.file ?? '', line, message };
}

export function nanos(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || !v) return NaN;
  if (/^\d+$/.test(v)) return Number(v);
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms * 1e6 : NaN;
}

/** OTLP JSON: `{resourceSpans:[{scopeSpans:[{spans:[…]}]}]}` or `resource_spans`/`scope_spans`; bare spans too. */
export function otlpSpans(record: SourceRecord, options: ImportOptions): SpanExtraction {
  const v = record.value;
  const spans: SpanRecord[] = [];
  const errors: LineError[] = [];
  if (!isObj(v)) return { spans, errors: [err(options, record.line, `expected an OTLP JSON object, got ${typeName(v)}`)] };
  const logs = v.resourceLogs ?? v.resource_logs;
  if (logs !== undefined) return otlpLogs(logs, record.line, options);
  const resources = v.resourceSpans ?? v.resource_spans;
  if (resources === undefined) {
    const one = otlpSpan(v, record.line);
    if (typeof one === 'string') errors.push(err(options, record.line, one));
    else spans.push(one);
    return { spans, errors };
  }
  if (!Array.isArray(resources)) return { spans, errors: [err(options, record.line, `resourceSpans: expected an array, got ${typeName(resources)}`)] };
  for (const [r, rs] of resources.entries()) {
    if (!isObj(rs)) continue;
    const scopes = arr(rs.scopeSpans ?? rs.scope_spans ?? rs.instrumentationLibrarySpans ?? rs.instrumentation_library_spans);
    for (const [s, ss] of scopes.entries()) {
      if (!isObj(ss)) continue;
      for (const [k, span] of arr(ss.spans).entries()) {
        const got = otlpSpan(span, record.line);
        if (typeof got === 'string') errors.push(err(options, record.line, `resourceSpans[${r}].scopeSpans[${s}].spans[${k}]: ${got}`));
        else spans.push(got);
      }
    }
  }
  return { spans, errors };
}

/** Events of the OTel GenAI conventions that hold conversation content (legacy per-message events and the newer details event). */
export const GENAI_CONTENT_EVENT = /^gen_ai\.((system|user|assistant|tool)\.message|choice|client\.inference\.operation\.details)$/;

/**
 * OTLP JSON logs: `{resourceLogs:[{scopeLogs:[{logRecords:[…]}]}]}`. The OTel GenAI instrumentations
 * (opentelemetry-instrumentation-openai-v2, @opentelemetry/instrumentation-openai and their kin) write
 * message content as log records named by `eventName` (or the `event.name` attribute, all the npm one
 * sets) with the content in the body. Each GenAI record
 * becomes a one-event span record under its trace and span id; other log records are application logs,
 * not conversation content, and are passed over.
 */
function otlpLogs(resources: unknown, line: number, options: ImportOptions): SpanExtraction {
  const spans: SpanRecord[] = [];
  const errors: LineError[] = [];
  if (!Array.isArray(resources)) return { spans, errors: [err(options, line, `resourceLogs: expected an array, got ${typeName(resources)}`)] };
  for (const [r, rl] of resources.entries()) {
    if (!isObj(rl)) continue;
    const scopes = arr(rl.scopeLogs ?? rl.scope_logs ?? rl.instrumentationLibraryLogs ?? rl.instrumentation_library_logs);
    for (const [s, sl] of scopes.entries()) {
      if (!isObj(sl)) continue;
      for (const [k, lr] of arr(sl.logRecords ?? sl.log_records).entries()) {
        const got = otlpLogEvent(lr, line);
        if (got === null) continue;
        if (typeof got === 'string') errors.push(err(options, line, `resourceLogs[${r}].scopeLogs[${s}].logRecords[${k}]: ${got}`));
        else spans.push(got);
      }
    }
  }
  return { spans, errors };
}

function otlpLogEvent(lr: unknown, line: number): SpanRecord | string | null {
  if (!isObj(lr)) return `expected a log record object, got ${typeName(lr)}`;
  const attrs = Array.isArray(lr.attributes) ? keyValues(lr.attributes) : isObj(lr.attributes) ? lr.attributes : {};
  const name = str(lr.eventName ?? lr.event_name) || str(attrs['event.name']) || '';
  if (!GENAI_CONTENT_EVENT.test(name)) return null;
  // An all-zero id is the invalid span context: the record was emitted with no span current.
  const validId = (v: unknown): string | undefined => {
    const id = idOf(v);
    return id && !/^0+$/.test(id) ? id : undefined;
  };
  const traceId = validId(lr.traceId ?? lr.trace_id);
  const spanId = validId(lr.spanId ?? lr.span_id);
  if (!traceId || !spanId)
    return `event ${name} has no ${traceId ? 'spanId' : 'traceId'}: it was emitted outside a span, so it cannot be put with the rest of its conversation. Record with a tracer provider set (the instrumentation then emits each event inside its chat span).`;
  const rawBody = lr.body === undefined ? undefined : anyValue(lr.body);
  let body: Obj = {};
  if (isObj(rawBody)) body = rawBody;
  else if (typeof rawBody === 'string') {
    const parsed = rawBody.trimStart().startsWith('{') ? tryJson(rawBody) : undefined;
    body = parsed?.ok && isObj(parsed.value) ? parsed.value : { content: rawBody };
  }
  const time = nanos(lr.timeUnixNano ?? lr.time_unix_nano);
  const observed = nanos(lr.observedTimeUnixNano ?? lr.observed_time_unix_nano);
  const at = time > 0 ? time : observed > 0 ? observed : NaN;
  return {
    traceId,
    spanId,
    name: '',
    start: at,
    end: at,
    attributes: {},
    // Attributes flattened as span events' are; the body kept as it is (messages, tool_calls, choice message).
    events: [{ name, attributes: { ...flattenAttributes(attrs), ...body } }],
    error: false,
    line,
    fromLogs: true,
  };
}

function otlpSpan(s: unknown, line: number): SpanRecord | string {
  if (!isObj(s)) return `expected a span object, got ${typeName(s)}`;
  const traceId = idOf(s.traceId ?? s.trace_id);
  const spanId = idOf(s.spanId ?? s.span_id);
  if (!traceId) return 'traceId: missing (a span needs its trace id to be grouped)';
  if (!spanId) return 'spanId: missing';
  const attrs = Array.isArray(s.attributes) ? keyValues(s.attributes) : isObj(s.attributes) ? s.attributes : {};
  const status = isObj(s.status) ? s.status : {};
  const code = status.code;
  const events = arr(s.events)
    .filter(isObj)
    .map((e) => ({
      name: str(e.name) ?? '',
      attributes: flattenAttributes(Array.isArray(e.attributes) ? keyValues(e.attributes) : isObj(e.attributes) ? e.attributes : {}),
    }));
  return {
    traceId,
    spanId,
    parentId: idOf(s.parentSpanId ?? s.parent_span_id),
    name: str(s.name) ?? '',
    start: nanos(s.startTimeUnixNano ?? s.start_time_unix_nano),
    end: nanos(s.endTimeUnixNano ?? s.end_time_unix_nano),
    attributes: flattenAttributes(attrs),
    events,
    error: code === 2 || code === 'STATUS_CODE_ERROR' || code === 'ERROR',
    statusMessage: str(status.message),
    line,
  };
}

/** Phoenix span JSONL: `{name, context:{trace_id, span_id}, span_kind, parent_id, status_code, attributes, …}`. */
export function phoenixSpans(record: SourceRecord, options: ImportOptions): SpanExtraction {
  const v = record.value;
  if (!isObj(v)) return { spans: [], errors: [err(options, record.line, `expected a Phoenix span object, got ${typeName(v)}`)] };
  // Phoenix's otlp-json download (and OTLP lines) may sit in the same folder: accept them here as well.
  if (v.resource_spans !== undefined || v.resourceSpans !== undefined) return otlpSpans(record, options);
  const ctx = isObj(v.context) ? v.context : {};
  const traceId = idOf(ctx.trace_id ?? v.trace_id);
  const spanId = idOf(ctx.span_id ?? v.span_id);
  if (!traceId) return { spans: [], errors: [err(options, record.line, 'context.trace_id: missing (a span needs its trace id to be grouped)')] };
  if (!spanId) return { spans: [], errors: [err(options, record.line, 'context.span_id: missing')] };
  const attrs = flattenAttributes(isObj(v.attributes) ? v.attributes : {});
  if (typeof v.span_kind === 'string' && attrs['openinference.span.kind'] === undefined) attrs['openinference.span.kind'] = v.span_kind;
  const events = arr(v.events)
    .filter(isObj)
    .map((e) => ({ name: str(e.name) ?? '', attributes: flattenAttributes(isObj(e.attributes) ? e.attributes : {}) }));
  return {
    spans: [
      {
        traceId,
        spanId,
        parentId: idOf(v.parent_id),
        name: str(v.name) ?? '',
        start: nanos(v.start_time),
        end: nanos(v.end_time),
        attributes: attrs,
        events,
        error: v.status_code === 'ERROR',
        statusMessage: str(v.status_message) || undefined,
        line: record.line,
      },
    ],
    errors: [],
  };
}

const LANGFUSE_TYPES = new Set(['GENERATION', 'TOOL', 'AGENT', 'SPAN', 'EVENT', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);

export function isLangfuseObservation(v: unknown): v is Obj {
  return isObj(v) && typeof v.type === 'string' && LANGFUSE_TYPES.has(v.type) && (v.traceId !== undefined || v.trace_id !== undefined || v.id !== undefined);
}

/** Langfuse: a trace export `{id, input, output, metadata, observations:[…]}`, an API page `{data:[…]}`, or one observation row. */
export function langfuseSpans(record: SourceRecord, options: ImportOptions): SpanExtraction {
  const v = record.value;
  if (!isObj(v)) return { spans: [], errors: [err(options, record.line, `expected a Langfuse trace or observation object, got ${typeName(v)}`)] };
  const spans: SpanRecord[] = [];
  const errors: LineError[] = [];
  const trace = isObj(v.trace) ? v.trace : v;
  const observations = Array.isArray(v.observations) ? v.observations : Array.isArray(trace.observations) ? trace.observations : undefined;
  if (observations) {
    const traceId = idOf(trace.id) ?? idOf(v.traceId);
    for (const [i, o] of observations.entries()) {
      const got = langfuseSpan(o, record.line, traceId);
      if (typeof got === 'string') errors.push(err(options, record.line, `observations[${i}]: ${got}`));
      else spans.push(got);
    }
    const info: SpanExtraction['traceInfo'] = {};
    if (traceId) info[traceId] = { metadata: trace.metadata, input: trace.input, output: trace.output, name: str(trace.name), raw: trace };
    return { spans, errors, complete: true, traceInfo: info };
  }
  if (Array.isArray(v.data)) {
    for (const [i, o] of v.data.entries()) {
      const got = langfuseSpan(o, record.line, undefined);
      if (typeof got === 'string') errors.push(err(options, record.line, `data[${i}]: ${got}`));
      else spans.push(got);
    }
    return { spans, errors };
  }
  const got = langfuseSpan(v, record.line, undefined);
  if (typeof got === 'string') return { spans, errors: [err(options, record.line, got)] };
  return { spans: [got], errors };
}

function langfuseSpan(o: unknown, line: number, traceIdHint: string | undefined): SpanRecord | string {
  if (!isObj(o)) return `expected an observation object, got ${typeName(o)}`;
  const traceId = idOf(o.traceId ?? o.trace_id) ?? traceIdHint;
  const id = idOf(o.id);
  if (!traceId) return 'traceId: missing (an observation needs its trace id to be grouped)';
  if (!id) return 'id: missing';
  const type = str(o.type) ?? 'SPAN';
  const metadata = o.metadata;
  return {
    traceId,
    spanId: id,
    parentId: idOf(o.parentObservationId ?? o.parent_observation_id),
    name: str(o.name) ?? '',
    start: nanos(o.startTime ?? o.start_time),
    end: nanos(o.endTime ?? o.end_time),
    attributes: isObj(metadata) ? flattenAttributes({ metadata }) : {},
    events: [],
    error: o.level === 'ERROR',
    statusMessage: str(o.statusMessage ?? o.status_message),
    line,
    observation: {
      type,
      input: jsonOrText(o.input),
      output: jsonOrText(o.output),
      metadata,
      model: str(o.model) ?? str(o.providedModelName ?? o.provided_model_name),
    },
  };
}

/** Langfuse exports (CSV, blob JSONL) carry input/output as JSON text; the UI download as values. */
function jsonOrText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('[') || t.startsWith('"'))) return v;
  const parsed = tryJson(t);
  return parsed.ok ? parsed.value : v;
}
