// Rebuild one agent run from its spans. Each LLM span repeats the history it was given, so the
// conversation is grown span by span, appending only what the previous spans did not already hold.
// Tool spans then supply results the LLM spans lost (content capture off, OpenInference overwrites),
// paired by call id, else by tool name and order.
import { canonicalJson } from '../../trace/canonical';
import type { ToolDef } from '../../trace/schema';
import type { ConvItem, NCall, NResult, TraceDraft, TurnExtra } from '../conversation';
import { pickTask } from '../task';
import type { ImportOptions, SpanGroup, SpanRecord } from '../types';
import { argumentsOf, asText, contentText, idOf, str } from '../values';
import { isLlmSpan, llmExchange } from './llm';

interface ToolRun {
  spanId: string;
  callId?: string;
  name: string;
  arguments?: unknown;
  result: string;
  isError?: boolean;
  used: boolean;
}

export function draftFromSpans(group: SpanGroup, options: ImportOptions, format: string): TraceDraft | string {
  const spans = withLogEvents(group.spans).sort(byStart);
  const conv: ConvItem[] = [];
  const seen = new Map<string, number>();
  const tools: ToolDef[] = [];
  let model: string | undefined;
  const runs: ToolRun[] = [];
  for (const s of spans) {
    if (isToolSpan(s)) {
      runs.push(toolRun(s));
      continue;
    }
    if (!isLlmSpan(s)) continue;
    const x = llmExchange(s);
    model ??= x.model;
    tools.push(...x.tools);
    appendNew(conv, seen, x.input);
    appendNew(conv, seen, x.output);
  }
  const meta: Record<string, unknown> = {};
  let items = conv;
  if (conv.length === 0 && runs.length > 0) items = runs.map(runItems).flat();
  else {
    const unmatched = fillFromToolRuns(items, runs);
    if (unmatched > 0) meta.unmatchedToolSpans = unmatched;
  }
  const root = rootSpan(spans);
  const info = group.info;
  const rootInput = info?.input ?? root?.attributes['input.value'] ?? root?.observation?.input;
  const rootOutput = info?.output ?? root?.attributes['output.value'] ?? root?.observation?.output;
  let turnExtras: TurnExtra[] | undefined;
  if (!items.some((i) => i.role === 'user') && rootInput !== undefined) items = [{ role: 'user', text: textOf(rootInput) }, ...items];
  if (rootOutput !== undefined && conv.length === 0) turnExtras = [{ answer: textOf(rootOutput) }];
  if (items.length === 0) return noContent(group, spans);
  const sources: unknown[] = [info?.metadata, info?.raw, ...(root ? [root.attributes] : []), ...spans.filter((s) => s !== root).map((s) => s.attributes)];
  return {
    id: group.traceId,
    idPrefix: format,
    format,
    tools,
    model,
    items,
    turnExtras,
    task: pickTask(sources, options.taskField, undefined),
    meta: Object.keys(meta).length ? meta : undefined,
  };
}

/**
 * GenAI events read from OTLP logs join the span they were emitted in (same span id), after that span's
 * own events and in file order; without the span (a logs-only export) each span id becomes one span
 * holding its events, starting at its first event.
 */
function withLogEvents(spans: readonly SpanRecord[]): SpanRecord[] {
  if (!spans.some((s) => s.fromLogs)) return [...spans];
  const out: SpanRecord[] = [];
  const byId = new Map<string, SpanRecord>();
  for (const s of spans) {
    if (s.fromLogs) continue;
    const copy = { ...s, events: [...s.events] };
    out.push(copy);
    if (!byId.has(s.spanId)) byId.set(s.spanId, copy);
  }
  for (const s of spans) {
    if (!s.fromLogs) continue;
    const target = byId.get(s.spanId);
    if (target) {
      target.events.push(...s.events);
      continue;
    }
    const own: SpanRecord = { ...s, events: [...s.events] };
    byId.set(s.spanId, own);
    out.push(own);
  }
  return out;
}

function byStart(a: SpanRecord, b: SpanRecord): number {
  const sa = Number.isFinite(a.start) ? a.start : Number.MAX_VALUE;
  const sb = Number.isFinite(b.start) ? b.start : Number.MAX_VALUE;
  return sa - sb || a.line - b.line;
}

export function isToolSpan(s: SpanRecord): boolean {
  if (s.observation) return s.observation.type === 'TOOL';
  const a = s.attributes;
  return a['gen_ai.operation.name'] === 'execute_tool' || a['openinference.span.kind'] === 'TOOL' || s.name.startsWith('execute_tool ');
}

function toolRun(s: SpanRecord): ToolRun {
  const a = s.attributes;
  const o = s.observation;
  const meta = o?.metadata as Record<string, unknown> | undefined;
  const name = str(a['gen_ai.tool.name']) ?? str(a['tool.name']) ?? (s.name.startsWith('execute_tool ') ? s.name.slice(13) : s.name) ?? 'tool';
  const callId =
    idOf(a['gen_ai.tool.call.id']) ??
    idOf(a['tool.id']) ??
    idOf(a['tool_call.id']) ??
    idOf(meta?.tool_call_id) ??
    idOf(meta?.toolCallId) ??
    idOf(meta?.call_id);
  const args = a['gen_ai.tool.call.arguments'] ?? a['input.value'] ?? o?.input;
  const raw = a['gen_ai.tool.call.result'] ?? a['output.value'] ?? o?.output;
  const errorType = str(a['error.type']);
  const isError = s.error || errorType !== undefined;
  const result = raw !== undefined && raw !== null ? textOf(raw) : isError ? [errorType, s.statusMessage].filter((x) => x).join(': ') : '';
  return {
    spanId: s.spanId,
    callId,
    name: name || 'tool',
    arguments: args === undefined ? undefined : argumentsOf(args),
    result,
    isError: isError || undefined,
    used: false,
  };
}

/** Without message content, each tool span is both the call and its result; the span id names the call. */
function runItems(r: ToolRun): ConvItem[] {
  const id = r.callId ?? r.spanId;
  return [
    { role: 'assistant', text: '', calls: [{ id, name: r.name, arguments: r.arguments }] },
    { role: 'tool', results: [{ callId: id, content: r.result, isError: r.isError }] },
  ];
}

/** Append the messages of `incoming` that the conversation does not already hold (multiset of fingerprints). */
function appendNew(conv: ConvItem[], seen: Map<string, number>, incoming: ConvItem[]): void {
  const available = new Map(seen);
  let i = 0;
  for (; i < incoming.length; i++) {
    const f = fingerprint(incoming[i]!);
    const n = available.get(f) ?? 0;
    if (n === 0) break;
    available.set(f, n - 1);
  }
  for (; i < incoming.length; i++) {
    const item = incoming[i]!;
    conv.push(item);
    const f = fingerprint(item);
    seen.set(f, (seen.get(f) ?? 0) + 1);
  }
}

function fingerprint(item: ConvItem): string {
  const calls = item.role === 'assistant' ? item.calls.map((c) => [c.id ?? '', c.name, canonicalJson(c.arguments ?? null)]) : [];
  const results = item.role === 'system' ? [] : (item.results ?? []).map((r) => [r.callId ?? '', r.content]);
  const text = item.role === 'tool' ? '' : item.text.trim();
  return JSON.stringify([item.role, text, calls, results]);
}

/**
 * Give every call without a result the tool span that ran it: same call id first, then the next unused
 * run of the same tool. Error status from a tool span marks a matching result too. Returns how many
 * tool spans matched no call.
 */
function fillFromToolRuns(items: ConvItem[], runs: ToolRun[]): number {
  if (runs.length === 0) return 0;
  const answered = new Set<string>();
  const resultsById = new Map<string, NResult>();
  for (const it of items) {
    if (it.role === 'system') continue;
    for (const r of it.results ?? []) {
      const id = idOf(r.callId);
      if (id) {
        answered.add(id);
        resultsById.set(id, r);
      }
    }
  }
  const byId = new Map<string, ToolRun>();
  for (const r of runs) if (r.callId && !byId.has(r.callId)) byId.set(r.callId, r);
  const byName = new Map<string, RunQueue>();
  for (const r of runs) {
    const q = byName.get(r.name);
    if (q) q.runs.push(r);
    else byName.set(r.name, { runs: [r], next: 0 });
  }
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.role !== 'assistant' || it.calls.length === 0) continue;
    const added: NResult[] = [];
    for (const call of it.calls) {
      const match = matchRun(call, byId, byName);
      const id = idOf(call.id);
      if (id && answered.has(id)) {
        if (match) {
          match.run.used = true;
          const existing = resultsById.get(id);
          if (existing && match.run.isError && existing.isError === undefined) existing.isError = true;
        }
        continue;
      }
      if (!match) continue;
      match.run.used = true;
      const { run } = match;
      added.push(
        id
          ? { callId: id, content: run.result, isError: run.isError, pairing: match.byId ? 'id' : 'name-order' }
          : { name: call.name, content: run.result, isError: run.isError, pairing: 'name-order' },
      );
    }
    if (added.length) items.splice(i + 1, 0, { role: 'tool', results: added });
  }
  return runs.filter((r) => !r.used).length;
}

interface RunQueue {
  runs: ToolRun[];
  /** Runs before this index are used: each queue is walked about once overall. */
  next: number;
}

function matchRun(call: NCall, byId: Map<string, ToolRun>, byName: Map<string, RunQueue>): { run: ToolRun; byId: boolean } | undefined {
  const id = idOf(call.id);
  if (id) {
    const run = byId.get(id);
    if (run) return run.used ? undefined : { run, byId: true };
  }
  // Name and order: a run that names no call id, or any run of that tool when the call itself has no id.
  const q = byName.get(call.name);
  if (!q) return undefined;
  while (q.next < q.runs.length && q.runs[q.next]!.used) q.next++;
  let run: ToolRun | undefined;
  for (let i = q.next; i < q.runs.length && !run; i++) {
    const r = q.runs[i]!;
    if (!r.used && (!r.callId || !id)) run = r;
  }
  return run ? { run, byId: false } : undefined;
}

function rootSpan(spans: SpanRecord[]): SpanRecord | undefined {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.find((s) => !s.parentId || !ids.has(s.parentId));
}

function textOf(v: unknown): string {
  return typeof v === 'string' ? v : contentText(v) || asText(v);
}

/** Why a trace holds nothing to import, and where its content would be. */
function noContent(group: SpanGroup, spans: SpanRecord[]): string {
  const what = `trace ${JSON.stringify(group.traceId)} (${spans.length} span${spans.length === 1 ? '' : 's'}) records no messages and no tool calls`;
  const genai = spans.some((s) => Object.keys(s.attributes).some((k) => k.startsWith('gen_ai.')));
  if (group.spans.some((s) => s.fromLogs))
    return `${what}: its GenAI log events carry no content, so content capture was off when it was recorded (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)`;
  if (genai)
    return `${what}: the OpenTelemetry GenAI instrumentations (opentelemetry-instrumentation-openai-v2 in Python, @opentelemetry/instrumentation-openai on npm, and their kin) write message content to OTLP log records, not to spans. Import the logs export ("resourceLogs", recorded with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true) together with the spans (in the same file), or alone`;
  return `${what}: message content capture was probably off when it was recorded`;
}
