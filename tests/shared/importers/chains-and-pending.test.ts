// Issue 38 items 4 and 5, on records in the shapes the APIs document: Responses chained by
// previous_response_id, an Anthropic request with a system message mid-conversation, a queued answer.
// Each shape is also tested on a real recorded file (real-responses-conversation, real-anthropic-mid-system,
// real-responses-background; see docs/trace-formats.md).
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, pairs, shape } from './helpers';

const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

describe('OpenAI Responses records chained by previous_response_id', () => {
  const first = {
    request: { model: 'gpt-4.1', tools, input: 'Weather in Paris?' },
    response: {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      output: [{ type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    },
  };
  const second = {
    request: { model: 'gpt-4.1', tools, previous_response_id: 'resp_1', input: [{ type: 'function_call_output', call_id: 'call_1', output: '18 °C' }] },
    response: {
      id: 'resp_2',
      object: 'response',
      status: 'completed',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It is 18 °C in Paris.' }] }],
    },
  };
  const text = [JSON.stringify(first), JSON.stringify(second)].join('\n');

  it('are stitched into one trace within a file instead of "refers to call id … no earlier assistant message"', () => {
    const r = importText(text, { file: 'responses.jsonl' });
    expect(r.errors).toEqual([]);
    expect(r.traces).toHaveLength(1);
    const t = r.traces[0]!.trace;
    expectConsistent(t);
    expect(pairs(t)).toEqual([{ turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '18 °C', pairing: 'id' }]);
    expect(t.turns[0]!.answer).toBe('It is 18 °C in Paris.');
    expect(t.tools.map((x) => x.name)).toEqual(['get_weather']);
  });

  it('a record whose predecessor is not in the file is still refused, with the reason', () => {
    const r = importText(JSON.stringify(second), { file: 'alone.jsonl', format: 'openai' });
    expect(r.traces).toEqual([]);
    expect(r.errors[0]!.message).toMatch(/call id "call_1"/);
  });
});

describe('a Responses answer still queued', () => {
  it('has no answer: the call made before it is not its target', () => {
    const queued = {
      request: {
        model: 'gpt-4.1',
        tools,
        background: true,
        input: [
          { type: 'message', role: 'user', content: 'Weather in Paris?' },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_1', output: '18 °C' },
        ],
      },
      response: { id: 'resp_q', object: 'response', status: 'queued', background: true, output: [] },
    };
    const r = importText(JSON.stringify(queued), { file: 'queued.jsonl' });
    expect(r.errors).toEqual([]);
    const turn = r.traces[0]!.trace.turns[0]!;
    expect(turn.target).toBeUndefined();
    expect(turn.answer).toBe('');
    expect(r.stats.callTargetTurns).toBe(0);
    expect(r.stats.unansweredTurns).toBe(1);
  });
});

describe('an Anthropic request with a system message in the middle of the conversation', () => {
  it('imports, the system message kept where it was', () => {
    const req = {
      model: 'claude-sonnet-4-5',
      system: 'You are terse.',
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18 °C' }] },
        { role: 'system', content: 'Answer in French.' },
        { role: 'assistant', content: [{ type: 'text', text: 'Il fait 18 °C.' }] },
      ],
    };
    const r = importText(JSON.stringify(req), { file: 'anthropic.jsonl' });
    expect(r.errors).toEqual([]);
    const t = r.traces[0]!.trace;
    expect(t.system).toBe('You are terse.');
    expect(shape(t.turns[0]!.steps)).toEqual(['call get_weather', 'obs get_weather', 'msg system']);
    expect(t.turns[0]!.answer).toBe('Il fait 18 °C.');
  });
});
