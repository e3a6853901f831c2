import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { targetCall } from '../../../shared/trace/target';
import { expectConsistent, importFixture, pairs, shape, traces } from './helpers';

describe('OpenAI Chat Completions', () => {
  const r = importFixture('openai-chat.jsonl');
  const [multi, legacy, logged] = traces(r);

  it('detects the format and imports every record', () => {
    expect(r.format).toBe('openai');
    expect(r.reason).toMatch(/3 of the first 3 record\(s\), read to detect the format/);
    expect(r.errors).toEqual([]);
    expect(traces(r)).toHaveLength(3);
    traces(r).forEach(expectConsistent);
  });

  it('keeps system, menu, model and one turn per user message', () => {
    expect(multi!.system).toBe('You are a concise travel assistant.');
    expect(multi!.model).toBe('gpt-4o-2024-08-06');
    expect(multi!.tools.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(multi!.tools[0]!.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(multi!.turns.map((t) => t.request)).toEqual(['Weather and local time in Paris?', 'And Lyon? The service is flaky, retry if needed.']);
    expect(multi!.turns.map((t) => t.answer)).toEqual(['Paris: 18 °C, cloudy; it is 14:05.', 'Lyon: 21 °C and sunny.']);
    expect(multi!.task).toBeUndefined();
  });

  it('pairs results by tool_call_id even when they come back out of order', () => {
    const step = multi!.turns[0]!.steps[0]!;
    expect(step.kind === 'call' && step.calls.map((c) => c.id)).toEqual(['call_a1', 'call_b2']);
    expect(pairs(multi!)).toEqual([
      { turn: 0, call: 'get_time', args: { city: 'Paris' }, content: '14:05 CEST', pairing: 'id' },
      { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18,"sky":"cloudy"}', pairing: 'id' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: 'Error: upstream timeout after 10s', pairing: 'id' },
      // invalid JSON arguments are kept as the raw string
      { turn: 1, call: 'get_weather', args: '{"city":"Lyon"', content: '{"temp_c":21,"sky":"sunny"}', pairing: 'id' },
    ]);
    expect(shape(multi!.turns[1]!.steps)).toEqual(['call get_weather', 'obs get_weather', 'call get_weather', 'obs get_weather']);
    const first = multi!.turns[1]!.steps[0]!;
    expect(first.kind === 'call' && first.text).toBe('Checking Lyon.');
  });

  it('pairs legacy function messages by name and order, with synthesised unique call ids', () => {
    expect(legacy!.tools.map((t) => t.name)).toEqual(['get_time']);
    expect(pairs(legacy!)).toEqual([
      { turn: 0, call: 'get_time', args: { city: 'Tokyo' }, content: '21:05 JST', pairing: 'name-order' },
      { turn: 0, call: 'get_time', args: { city: 'Osaka' }, content: '21:05 JST', pairing: 'name-order' },
    ]);
    const ids = legacy!.turns[0]!.steps.flatMap((s) => (s.kind === 'call' ? s.calls.map((c) => c.id) : []));
    expect(new Set(ids).size).toBe(2);
  });

  it('reads a logged request/response pair: developer message as system, response as the answer, custom_id as id', () => {
    expect(logged!.id).toBe('req-0003');
    expect(logged!.system).toBe('Answer in one line.');
    expect(logged!.model).toBe('gpt-4o-mini');
    expect(logged!.turns[0]!.answer).toBe('Yes, 6 °C with rain.');
    expect(pairs(logged!)).toEqual([{ turn: 0, call: 'get_weather', args: { city: 'Oslo' }, content: '{"temp_c":6,"sky":"rain"}', pairing: 'id' }]);
  });

  it('takes the task from a named metadata field only', () => {
    const labelled = importFixture('openai-chat.jsonl', { taskField: 'metadata.task' });
    expect(traces(labelled).map((t) => t.task)).toEqual(['weather_time', undefined, undefined]);
  });

  it('keeps no secret anywhere: not in traces, not in meta, not in errors', () => {
    const all = JSON.stringify(r);
    expect(all).not.toMatch(/SECRET|sk-proj|Bearer/);
    expect(multi!.meta).toEqual({ format: 'openai-chat' });
  });

  it('gives stable content-hash ids to records without one', () => {
    expect(multi!.id).toMatch(/^openai-[0-9a-f]{24}$/);
    expect(traces(importFixture('openai-chat.jsonl'))[0]!.id).toBe(multi!.id);
  });
});

describe('OpenAI Responses API', () => {
  const r = importFixture('openai-responses.jsonl');
  const [multi, builtin] = traces(r);

  it('imports both records', () => {
    expect(r.format).toBe('openai');
    expect(r.errors).toEqual([]);
    expect(traces(r)).toHaveLength(2);
  });

  it('groups consecutive function_call items into one parallel step and pairs outputs by call_id (not item id)', () => {
    expect(multi!.id).toBe('resp_68a1');
    expect(multi!.system).toBe('You are a concise travel assistant.');
    expect(multi!.tools.map((t) => t.name)).toEqual(['get_weather', 'get_time', 'web_search']);
    expect(shape(multi!.turns[0]!.steps)).toEqual(['call get_weather+get_time', 'obs get_time', 'obs get_weather']);
    expect(pairs(multi!)).toEqual([
      { turn: 0, call: 'get_time', args: { city: 'Paris' }, content: '14:05 CEST', pairing: 'id' },
      { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18,"sky":"cloudy"}', pairing: 'id' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: 'Error: upstream timeout after 10s', pairing: 'id' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: '{"temp_c":21,"sky":"sunny"}', pairing: 'id' },
    ]);
    expect(multi!.turns[0]!.steps[0]!.kind === 'call' && (multi!.turns[0]!.steps[0] as { calls: Array<{ id: string }> }).calls.map((c) => c.id)).toEqual([
      'call_a1',
      'call_b2',
    ]);
    expect(multi!.turns.map((t) => t.answer)).toEqual(['Paris: 18 °C, cloudy; it is 14:05.', 'Lyon: 21 °C and sunny.']);
  });

  it('keeps a built-in tool call (web_search) and reads the request/response wrapper', () => {
    expect(builtin!.id).toBe('resp_77b2');
    expect(builtin!.turns[0]!.request).toBe('Any news about the Lyon metro strike?');
    expect(shape(builtin!.turns[0]!.steps)).toEqual(['call web_search']);
    expect(builtin!.turns[0]!.answer).toBe('The strike ended on Monday.');
  });
});

describe('a logged call whose response is a tool call (paper B.2: the call is the frozen target)', () => {
  const record = {
    request: {
      model: 'gpt-4o-mini',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      messages: [
        { role: 'user', content: 'Weather in Oslo, then in Bergen?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":6}' },
      ],
    },
    response: {
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Now Bergen.',
            tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } }],
          },
        },
      ],
    },
  };
  const [t] = traces(importText(JSON.stringify(record) + '\n', { file: 'calls.jsonl' }));

  it('keeps the response call (with its text) as the target, after the evidence of the first call', () => {
    expectConsistent(t!);
    const turn = t!.turns[0]!;
    expect(turn.target).toBe('call');
    expect(turn.answer).toBe('');
    expect(shape(turn.steps)).toEqual(['call get_weather', 'obs get_weather', 'call get_weather']);
    expect(targetCall(turn)!.step).toMatchObject({ text: 'Now Bergen.', calls: [{ id: 'call_2', arguments: { city: 'Bergen' } }] });
  });
});
