import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import type { Trace } from '../../../shared/trace/schema';
import { expectConsistent, importFixture, pairs, shape, traces } from './helpers';

/** The weather scenario every span fixture records: parallel calls, an error, a repeated call, two turns. */
function expectWeatherRun(t: Trace, ids: [string, string, string, string], pairing: string, errorText: string): void {
  expectConsistent(t);
  expect(t.system).toBe('You are a concise travel assistant.');
  expect(t.turns.map((x) => x.request)).toEqual(['Weather and local time in Paris?', 'And Lyon?']);
  expect(t.turns.map((x) => x.answer)).toEqual(['Paris: 18 °C, cloudy; it is 14:05.', 'Lyon: 21 °C, sunny.']);
  expect(shape(t.turns[0]!.steps)).toEqual(['call get_weather+get_time', 'obs get_weather', 'obs get_time']);
  expect(shape(t.turns[1]!.steps)).toEqual(['call get_weather', 'obs get_weather!', 'call get_weather', 'obs get_weather']);
  const calls = t.turns.flatMap((x) => x.steps.flatMap((s) => (s.kind === 'call' ? s.calls.map((c) => c.id) : [])));
  expect(calls).toEqual(ids);
  expect(pairs(t)).toEqual([
    { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18,"sky":"cloudy"}', pairing },
    { turn: 0, call: 'get_time', args: { city: 'Paris' }, content: '14:05 CEST', pairing },
    { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: errorText, pairing, isError: true },
    { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: '{"temp_c":21,"sky":"sunny"}', pairing },
  ]);
}

describe('OpenTelemetry GenAI (OTLP file exporter, camelCase)', () => {
  const r = importFixture('otel-genai.jsonl');
  const [run, bare] = traces(r);

  it('detects OTLP with GenAI attributes and groups spans spread over several lines into one trace per trace id', () => {
    expect(r.format).toBe('otel');
    expect(r.reason).toMatch(/camelCase.*GenAI/);
    expect(r.errors).toEqual([]);
    expect(traces(r).map((t) => t.id)).toEqual(['5b8efff798038103d269b633813fc60c', '0af7651916cd43dd8448eb211c80319c']);
  });

  it('rebuilds the run from LLM spans without duplicating the repeated history; ids pair (a leading space is trimmed)', () => {
    expectWeatherRun(run!, ['call_a1', 'call_b2', 'call_c3', 'call_d4'], 'id', 'TimeoutError: upstream timeout after 10s');
    expect(run!.model).toBe('gpt-4o');
    expect(run!.tools.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(run!.tools[0]!.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(run!.meta?.unmatchedToolSpans).toBeUndefined();
  });

  it('takes the error of a tool span (error.type + status) when the LLM span never saw the result', () => {
    const err = pairs(run!)[2]!;
    expect(err.isError).toBe(true);
  });

  it('builds a trace from tool spans alone when message content was not captured', () => {
    expect(pairs(bare!)).toEqual([{ turn: 0, call: 'get_weather', args: { city: 'Nice' }, content: '{"temp_c":24}', pairing: 'id' }]);
    // The one assistant message is the call: it is the turn's frozen target (paper B.2), not an empty answer.
    expect(bare!.turns[0]!.answer).toBe('');
    expect(bare!.turns[0]!.target).toBe('call');
    expect(r.stats.callTargetTurns).toBe(1);
    expect(r.stats.unansweredTurns).toBe(0);
  });

  it('reads a task label from a span attribute', () => {
    expect(traces(importFixture('otel-genai.jsonl', { taskField: 'app.task' })).map((t) => t.task)).toEqual(['weather_time', 'weather']);
  });
});

describe('Phoenix otlp-json download (snake_case, OpenInference attributes)', () => {
  const r = importFixture('phoenix-otlp.json');
  const [t] = traces(r);

  it('reads the pretty-printed document and the flattened llm.input_messages / llm.output_messages', () => {
    expect(r.format).toBe('otel');
    expect(r.reason).toMatch(/snake_case.*OpenInference/);
    expect(r.errors).toEqual([]);
    expectConsistent(t!);
    expect(t!.model).toBe('gpt-4o-mini');
    expect(t!.tools.map((x) => x.name)).toEqual(['get_weather']);
    expect(t!.turns[0]!.request).toBe('Is it raining in Oslo and Bergen?');
    expect(pairs(t!)).toEqual([
      { turn: 0, call: 'get_weather', args: { city: 'Oslo' }, content: '{"sky":"rain"}', pairing: 'id' },
      { turn: 0, call: 'get_weather', args: { city: 'Bergen' }, content: '{"sky":"clear"}', pairing: 'id' },
    ]);
    expect(t!.turns[0]!.answer).toBe('Rain in Oslo, clear in Bergen.');
  });

  it('looks into JSON-string metadata for the task field', () => {
    expect(traces(importFixture('phoenix-otlp.json', { taskField: 'metadata.task' }))[0]!.task).toBe('rain_check');
  });
});

describe('Phoenix span JSONL (OpenInference, Anthropic instrumentor)', () => {
  const r = importFixture('phoenix-spans.jsonl');
  const [t] = traces(r);

  it('orders spans by start time (the download is not in order) and rebuilds one run', () => {
    expect(r.format).toBe('openinference');
    expect(r.errors).toEqual([]);
    expect(traces(r)).toHaveLength(1);
    expect(t!.id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(t!.model).toBe('claude-3-5-sonnet-20241022');
    expect(t!.tools.map((x) => x.name)).toEqual(['get_weather', 'get_time']);
  });

  it('recovers the tool result the LLM span lost (one tool_call_id per message) from the TOOL span, by id', () => {
    expectWeatherRun(t!, ['toolu_01A', 'toolu_01B', 'toolu_01C', 'toolu_01D'], 'id', 'upstream timeout after 10s');
    const first = t!.turns[0]!.steps[0]!;
    expect(first.kind === 'call' && first.text).toBe('Checking both.');
  });

  it('marks the error from the TOOL span status', () => {
    expect(pairs(t!)[2]).toMatchObject({ isError: true, content: 'upstream timeout after 10s' });
  });

  it('reads the task from JSON metadata on the spans', () => {
    expect(traces(importFixture('phoenix-spans.jsonl', { taskField: 'metadata.task' }))[0]!.task).toBe('weather_time');
  });
});

describe('Langfuse', () => {
  it('reads a trace export: generations rebuild the run, TOOL observations (no call ids) pair by name and order', () => {
    const r = importFixture('langfuse-trace.json');
    expect(r.format).toBe('langfuse');
    expect(r.errors).toEqual([]);
    const [t] = traces(r);
    expect(t!.id).toBe('lf-trace-7');
    expect(t!.model).toBe('gpt-4o');
    expect(t!.tools.map((x) => x.name)).toEqual(['get_weather', 'get_time']);
    expectWeatherRun(t!, ['call_a1', 'call_b2', 'call_c3', 'call_d4'], 'name-order', 'upstream timeout after 10s');
    expect(traces(importFixture('langfuse-trace.json', { taskField: 'task' }))[0]!.task).toBe('weather_time');
  });

  it('groups unordered observation rows (blob export, snake_case, JSON-text input/output) into the same run', () => {
    const r = importFixture('langfuse-observations.jsonl');
    expect(r.format).toBe('langfuse');
    expect(r.errors).toEqual([]);
    const [t] = traces(r);
    expectWeatherRun(t!, ['call_a1', 'call_b2', 'call_c3', 'call_d4'], 'name-order', 'upstream timeout after 10s');
    // same run as the trace export, apart from where the task label lives
    const fromExport = traces(importFixture('langfuse-trace.json'))[0]!;
    expect(t!.turns).toEqual(fromExport.turns);
    expect(traces(importFixture('langfuse-observations.jsonl', { taskField: 'metadata.task' }))[0]!.task).toBe('weather_time');
  });
});

describe('older GenAI span conventions', () => {
  const attrs = (o: Record<string, string>) => Object.entries(o).map(([key, v]) => ({ key, value: { stringValue: v } }));
  const span = (id: string, start: number, a: Record<string, string>, events: unknown[] = []) => ({
    traceId: 'T1',
    spanId: id,
    name: 'openai.chat',
    startTimeUnixNano: String(start),
    attributes: attrs(a),
    events,
  });
  const line = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

  it('reads OpenLLMetry indexed gen_ai.prompt.N / gen_ai.completion.N attributes and llm.request.functions', () => {
    const first = span('s1', 1, {
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'llm.request.functions.0.name': 'get_weather',
      'llm.request.functions.0.parameters': '{"type":"object"}',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Weather in Paris?',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.tool_calls.0.id': 'call_1',
      'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Paris"}',
    });
    const second = span('s2', 2, {
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Weather in Paris?',
      'gen_ai.prompt.1.role': 'assistant',
      'gen_ai.prompt.1.tool_calls.0.id': 'call_1',
      'gen_ai.prompt.1.tool_calls.0.name': 'get_weather',
      'gen_ai.prompt.1.tool_calls.0.arguments': '{"city":"Paris"}',
      'gen_ai.prompt.2.role': 'tool',
      'gen_ai.prompt.2.tool_call_id': 'call_1',
      'gen_ai.prompt.2.content': '18 C',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'It is 18 C.',
    });
    const r = importText(line([first, second]), { file: 'llmetry.jsonl' });
    expect(r.format).toBe('otel');
    const [t] = traces(r);
    expect(t!.tools).toEqual([{ name: 'get_weather', parameters: { type: 'object' } }]);
    expect(pairs(t!)).toEqual([{ turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '18 C', pairing: 'id' }]);
    expect(t!.turns[0]!.answer).toBe('It is 18 C.');
  });

  it('reads the deprecated per-message events (gen_ai.user.message, gen_ai.tool.message, gen_ai.choice)', () => {
    const ev = (name: string, a: Record<string, string>) => ({ name, attributes: attrs(a) });
    const s = span('s1', 1, { 'gen_ai.operation.name': 'chat' }, [
      ev('gen_ai.user.message', { content: 'Weather in Paris?' }),
      ev('gen_ai.assistant.message', {
        tool_calls: '[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}]',
      }),
      ev('gen_ai.tool.message', { id: 'call_1', content: '18 C' }),
      ev('gen_ai.choice', { message: '{"role":"assistant","content":"It is 18 C."}' }),
    ]);
    const [t] = traces(importText(line([s]), { file: 'events.jsonl' }));
    expect(pairs(t!)).toEqual([{ turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '18 C', pairing: 'id' }]);
    expect(t!.turns[0]!.answer).toBe('It is 18 C.');
  });
});
