// The three span formats: where their spans come from differs, how a run is rebuilt does not. OTLP
// covers both spans and the logs the GenAI instrumentations write their events to.
import { fromDraft } from '../record-outcome';
import type { ImportOptions, RecordOutcome, SpanFormat, SpanGroup } from '../types';
import { arr, isObj } from '../values';
import { draftFromSpans } from './build';
import { GENAI_CONTENT_EVENT, isLangfuseObservation, langfuseSpans, otlpSpans, phoenixSpans } from './sources';

function build(format: string) {
  return (group: SpanGroup, options: ImportOptions): RecordOutcome => {
    const draft = draftFromSpans(group, options, format);
    return fromDraft(draft, { value: null, line: group.line }, options);
  };
}

/** Which attribute conventions the first spans of an OTLP record use (looks at keys only, never the whole record). */
function otlpFlavour(v: Record<string, unknown>): string {
  let genai = false;
  let openinference = false;
  let seen = 0;
  for (const rs of arr(v.resourceSpans ?? v.resource_spans)) {
    if (!isObj(rs)) continue;
    for (const ss of arr(rs.scopeSpans ?? rs.scope_spans)) {
      if (!isObj(ss)) continue;
      for (const span of arr(ss.spans)) {
        if (!isObj(span) || seen++ > 200) break;
        for (const a of arr(span.attributes)) {
          const key = isObj(a) && typeof a.key === 'string' ? a.key : '';
          if (key.startsWith('gen_ai.')) genai = true;
          if (key === 'openinference.span.kind' || key.startsWith('llm.input_messages')) openinference = true;
        }
      }
    }
  }
  const conventions = [genai ? 'OTel GenAI attributes' : '', openinference ? 'OpenInference attributes' : ''].filter((x) => x);
  return conventions.length ? ` with ${conventions.join(' and ')}` : '';
}

/** How many of the first log records of an OTLP logs record are GenAI content events. */
function genaiLogEvents(v: Record<string, unknown>): number {
  let found = 0;
  let seen = 0;
  for (const rl of arr(v.resourceLogs ?? v.resource_logs)) {
    if (!isObj(rl)) continue;
    for (const sl of arr(rl.scopeLogs ?? rl.scope_logs)) {
      if (!isObj(sl)) continue;
      for (const lr of arr(sl.logRecords ?? sl.log_records)) {
        if (!isObj(lr) || seen++ > 200) break;
        const named = lr.eventName ?? lr.event_name ?? arr(lr.attributes).find((a) => isObj(a) && a.key === 'event.name');
        const name = isObj(named) && isObj(named.value) ? named.value.stringValue : named;
        if (typeof name === 'string' && GENAI_CONTENT_EVENT.test(name)) found++;
      }
    }
  }
  return found;
}

export const otelFormat: SpanFormat = {
  id: 'otel',
  kind: 'span',
  label: 'OpenTelemetry OTLP JSON (GenAI / OpenInference spans, GenAI log events)',
  recognize(value) {
    if (!isObj(value)) return null;
    const logs = value.resourceLogs !== undefined ? 'resourceLogs' : value.resource_logs !== undefined ? 'resource_logs' : undefined;
    if (logs) {
      const n = genaiLogEvents(value);
      return {
        score: 15,
        reason: `records are OTLP JSON logs ("${logs}")${n ? ` with ${n} OTel GenAI event(s) (gen_ai.user.message, gen_ai.choice, …)` : ''}`,
      };
    }
    if (value.resourceSpans !== undefined) return { score: 15, reason: `records are OTLP JSON ("resourceSpans", camelCase)${otlpFlavour(value)}` };
    if (value.resource_spans !== undefined)
      return { score: 15, reason: `records are OTLP JSON ("resource_spans", snake_case, as Phoenix's otlp-json download)${otlpFlavour(value)}` };
    if ((value.traceId !== undefined || value.trace_id !== undefined) && (value.spanId !== undefined || value.span_id !== undefined)) {
      return { score: 10, reason: 'records are single OTLP spans (traceId / spanId)' };
    }
    return null;
  },
  spansOf: otlpSpans,
  buildTrace: build('otel'),
};

export const openInferenceFormat: SpanFormat = {
  id: 'openinference',
  kind: 'span',
  label: 'Phoenix / OpenInference span JSONL',
  recognize(value) {
    if (!isObj(value)) return null;
    const ctx = isObj(value.context) ? value.context : undefined;
    if (ctx && ctx.span_id !== undefined && (value.span_kind !== undefined || value.attributes !== undefined)) {
      return { score: 15, reason: 'records are Phoenix spans ("context.span_id" with "span_kind" and OpenInference attributes)' };
    }
    return null;
  },
  spansOf: phoenixSpans,
  buildTrace: build('openinference'),
};

export const langfuseFormat: SpanFormat = {
  id: 'langfuse',
  kind: 'span',
  label: 'Langfuse trace / observation export',
  recognize(value) {
    if (!isObj(value)) return null;
    if (Array.isArray(value.observations)) return { score: 15, reason: 'records are Langfuse trace exports ("observations" with GENERATION / TOOL types)' };
    if (isLangfuseObservation(value) && (value.traceId !== undefined || value.trace_id !== undefined)) {
      return { score: 13, reason: 'records are Langfuse observations (type GENERATION / TOOL / SPAN with traceId)' };
    }
    if (arr(value.data).some(isLangfuseObservation)) return { score: 13, reason: 'records are Langfuse API pages ("data" of observations)' };
    return null;
  },
  spansOf: langfuseSpans,
  buildTrace: build('langfuse'),
};
