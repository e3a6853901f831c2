// OTLP exports written by the official OpenTelemetry GenAI instrumentations of the `openai` client
// (Python: opentelemetry-instrumentation-openai-v2; npm: @opentelemetry/instrumentation-openai;
// tests/fixtures/real/otel-logs/SOURCE.md): message content is in log records (events), not in the spans.
// Each file is counted here straight from its JSON and compared with the import (issue 38).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import type { Trace } from '../../../shared/trace/schema';
import { expectConsistent, pairs } from './helpers';

const DIR = join(__dirname, '..', '..', 'fixtures', 'real', 'otel-logs');
const EVENTS = 'openai-v2-events.otlp.jsonl';
const EXPERIMENTAL = 'openai-v2-latest-experimental.otlp.jsonl';
/** The npm instrumentation names its events in the `event.name` attribute, not in the record's `eventName`. */
const NPM = 'openai-npm-events.otlp.jsonl';

type J = Record<string, unknown>;
const lines = (name: string): J[] =>
  readFileSync(join(DIR, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as J);

/** OTLP AnyValue → plain value (a decoder of the test's own, not the importer's). */
function plain(v: unknown): unknown {
  const o = v as J;
  if (!o || typeof o !== 'object') return undefined;
  if ('stringValue' in o) return o.stringValue;
  if ('intValue' in o) return Number(o.intValue);
  if ('doubleValue' in o) return o.doubleValue;
  if ('boolValue' in o) return o.boolValue;
  if ('arrayValue' in o) return (((o.arrayValue as J).values as unknown[]) ?? []).map(plain);
  if ('kvlistValue' in o) return Object.fromEntries((((o.kvlistValue as J).values as J[]) ?? []).map((kv) => [kv.key, plain(kv.value)]));
  return undefined;
}

interface LogRecord {
  traceId: string;
  spanId: string;
  eventName: string;
  body: J;
  attributes: J;
}

function logRecords(records: J[]): LogRecord[] {
  const out: LogRecord[] = [];
  for (const r of records)
    for (const rl of (r.resourceLogs as J[] | undefined) ?? [])
      for (const sl of rl.scopeLogs as J[])
        for (const lr of sl.logRecords as J[]) {
          const attributes = Object.fromEntries(((lr.attributes as J[]) ?? []).map((kv) => [kv.key, plain(kv.value)]));
          out.push({
            traceId: lr.traceId as string,
            spanId: lr.spanId as string,
            eventName: (lr.eventName as string | undefined) ?? (attributes['event.name'] as string),
            body: (plain(lr.body) as J | undefined) ?? {},
            attributes,
          });
        }
  return out;
}

interface Counts {
  traces: number;
  requests: number;
  calls: number;
  observations: number;
  answers: string[];
}

/** The per-message events (the instrumentation's default): calls from each choice, results from tool messages. */
function countEvents(records: LogRecord[]): Counts {
  const traces = new Set(records.map((r) => r.traceId));
  const users = new Set<string>();
  const results = new Set<string>();
  let calls = 0;
  const lastChoice = new Map<string, string>();
  for (const r of records) {
    if (r.eventName === 'gen_ai.user.message') users.add(`${r.traceId} ${String(r.body.content)}`);
    if (r.eventName === 'gen_ai.tool.message') results.add(`${r.traceId} ${String(r.body.id)}`);
    if (r.eventName === 'gen_ai.choice') {
      const message = r.body.message as J;
      calls += ((message.tool_calls as unknown[]) ?? []).length;
      if (typeof message.content === 'string') lastChoice.set(r.traceId, message.content);
    }
  }
  return { traces: traces.size, requests: users.size, calls, observations: results.size, answers: [...lastChoice.values()] };
}

/** The latest experimental conventions: one details event per chat call with input and output messages. */
function countDetails(records: LogRecord[]): Counts {
  const traces = new Set(records.map((r) => r.traceId));
  const users = new Set<string>();
  const results = new Set<string>();
  let calls = 0;
  const lastAnswer = new Map<string, string>();
  for (const r of records) {
    if (r.eventName !== 'gen_ai.client.inference.operation.details') continue;
    for (const m of r.attributes['gen_ai.input.messages'] as J[]) {
      for (const p of m.parts as J[]) {
        if (m.role === 'user' && p.type === 'text') users.add(`${r.traceId} ${String(p.content)}`);
        if (p.type === 'tool_call_response') results.add(`${r.traceId} ${String(p.id)}`);
      }
    }
    for (const m of r.attributes['gen_ai.output.messages'] as J[]) {
      for (const p of m.parts as J[]) {
        if (p.type === 'tool_call') calls++;
        if (p.type === 'text') lastAnswer.set(r.traceId, String(p.content));
      }
    }
  }
  return { traces: traces.size, requests: users.size, calls, observations: results.size, answers: [...lastAnswer.values()] };
}

function imported(all: Trace[]): Counts {
  return {
    traces: all.length,
    requests: all.flatMap((t) => t.turns).length,
    calls: all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : [])))).length,
    observations: all.flatMap((t) => pairs(t)).length,
    answers: all.map((t) => t.turns[t.turns.length - 1]!.answer ?? ''),
  };
}

const asText = (records: J[]): string => records.map((r) => JSON.stringify(r)).join('\n');

describe('OTLP logs of the OpenTelemetry openai instrumentations, Python and npm (real exports)', () => {
  for (const [name, count] of [
    [EVENTS, countEvents],
    [EXPERIMENTAL, countDetails],
    [NPM, countEvents],
  ] as const) {
    const records = lines(name);
    const expected = count(logRecords(records));

    it(`${name}: the logs alone import, one trace per trace id, every call paired to its result by id`, () => {
      const logsOnly = records.filter((r) => r.resourceLogs !== undefined);
      const r = importText(asText(logsOnly), { file: name });
      expect(r.format).toBe('otel');
      expect(r.reason).toMatch(/OTLP JSON logs \("resourceLogs"\) with \d+ OTel GenAI event/);
      expect(r.errors).toEqual([]);
      const all = r.traces.map((t) => t.trace);
      all.forEach(expectConsistent);
      expect(imported(all)).toEqual(expected);
      expect(all.flatMap((t) => pairs(t)).every((p) => p.pairing === 'id')).toBe(true);
      expect(expected.calls).toBeGreaterThan(expected.traces);
    });

    it(`${name}: spans and logs in one file (as the Collector's file exporter writes them) give the same traces, with the model from the spans`, () => {
      const logsOnly = importText(asText(records.filter((r) => r.resourceLogs !== undefined)), { file: name });
      const both = importText(asText(records), { file: name });
      expect(both.errors).toEqual([]);
      const all = both.traces.map((t) => t.trace);
      expect(imported(all)).toEqual(expected);
      expect(all.map((t) => t.turns)).toEqual(logsOnly.traces.map((t) => t.trace.turns));
      const model = plain(
        ((((records.find((r) => r.resourceSpans)!.resourceSpans as J[])[0]!.scopeSpans as J[])[0]!.spans as J[])[0]!.attributes as J[]).find(
          (a) => a.key === 'gen_ai.request.model',
        )!.value,
      );
      expect(new Set(all.map((t) => t.model))).toEqual(new Set([model]));
    });
  }

  it('the npm export names its events in the `event.name` attribute only, and reads as the same two conversations as the Python one', () => {
    const raw = lines(NPM).flatMap((r) =>
      ((r.resourceLogs as J[] | undefined) ?? []).flatMap((rl) => (rl.scopeLogs as J[]).flatMap((sl) => sl.logRecords as J[])),
    );
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((lr) => lr.eventName === undefined)).toBe(true);
    const read = (name: string) => importText(asText(lines(name)), { file: name }).traces.map((t) => t.trace);
    const npm = read(NPM);
    const python = read(EVENTS);
    expect(imported(npm)).toEqual(imported(python));
    const calls = (all: Trace[]) => all.map((t) => pairs(t).map((p) => [p.call, p.args]));
    expect(calls(npm)).toEqual(calls(python));
    expect(npm.flatMap((t) => t.turns.map((u) => u.request))).toEqual(python.flatMap((t) => t.turns.map((u) => u.request)));
  });

  for (const name of [EVENTS, NPM])
    it(`${name}: the spans alone (content is not in them) say where the content lives, naming both instrumentations, instead of guessing capture was off`, () => {
      const spansOnly = lines(name).filter((r) => r.resourceSpans !== undefined);
      const r = importText(asText(spansOnly), { file: name });
      expect(r.traces).toEqual([]);
      expect(r.errors.length).toBe(new Set(logRecords(lines(name)).map((x) => x.traceId)).size);
      for (const e of r.errors) {
        expect(e.file).toBe(name);
        expect(e.message).toMatch(/write message content to OTLP log records, not to spans/);
        expect(e.message).toMatch(/opentelemetry-instrumentation-openai-v2 in Python, @opentelemetry\/instrumentation-openai on npm/);
        expect(e.message).toMatch(/resourceLogs/);
        expect(e.message).not.toMatch(/probably off/);
      }
    });

  it('an event outside any span is reported with its file, line and record, and the rest still imports', () => {
    const records = lines(EVENTS);
    const at = records.findIndex((r) => r.resourceLogs !== undefined);
    const broken = structuredClone(records);
    const first = (((broken[at]!.resourceLogs as J[])[0]!.scopeLogs as J[])[0]!.logRecords as J[])[0] as J;
    delete first.traceId;
    delete first.spanId;
    const r = importText(asText(broken), { file: EVENTS });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: EVENTS, line: at + 1 });
    expect(r.errors[0]!.message).toMatch(/^resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords\[0\]: event gen_ai\.system\.message has no traceId/);
    expect(r.traces.length).toBe(countEvents(logRecords(records)).traces);
  });
});
