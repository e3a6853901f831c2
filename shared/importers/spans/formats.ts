// The three span formats: where their spans come from differs, how a run is rebuilt does not.
import { fromDraft } from '../record-outcome';
import type { ImportOptions, RecordOutcome, SpanFormat, SpanGroup } from '../types';
import { arr, isObj } from '../values';
import { draftFromSpans } from './build';
import { isLangfuseObservation, langfuseSpans, otlpSpans, phoenixSpans } from './sources';

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

export const otelFormat: SpanFormat = {
  id: 'otel',
  kind: 'span',
  label: 'OpenTelemetry OTLP JSON (GenAI / OpenInference spans)',
  recognize(value) {
    if (!isObj(value)) return null;
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
