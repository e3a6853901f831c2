import { describe, expect, it } from 'vitest';
import { expectConsistent, importFixture, pairs, shape, traces } from './helpers';

describe('Hermes function calling (ShareGPT)', () => {
  const r = importFixture('hermes.jsonl');
  const [hermes, roleContent] = traces(r);

  it('detects the tags and imports both records', () => {
    expect(r.format).toBe('sharegpt');
    expect(r.reason).toMatch(/<tool_call>/);
    expect(r.errors).toEqual([]);
    traces(r).forEach(expectConsistent);
  });

  it('reads the menu from <tools> and parallel <tool_call>s, JSON or Python literal', () => {
    expect(hermes!.id).toBe('0b7a4d0e-hermes-1');
    expect(hermes!.tools.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(shape(hermes!.turns[0]!.steps)).toEqual(['call get_weather+get_time', 'obs get_weather', 'obs get_time']);
  });

  it('pairs the n-th <tool_response> with the n-th open call, name or no name', () => {
    expect(pairs(hermes!)).toEqual([
      { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18,"sky":"cloudy"}', pairing: 'position' },
      { turn: 0, call: 'get_time', args: { city: 'Paris' }, content: '14:05 CEST', pairing: 'position' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: 'Error: upstream timeout after 10s', pairing: 'position' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: '{"temp_c":21,"sky":"sunny"}', pairing: 'position' },
    ]);
    expect(hermes!.turns.map((t) => t.answer)).toEqual(['Paris: 18 °C, cloudy; it is 14:05.', 'Lyon: 21 °C, sunny.']);
  });

  it('reads role/content conversations with text around the tags and a <tools> block of concatenated objects', () => {
    expect(roleContent!.tools.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    const call = roleContent!.turns[0]!.steps[0]!;
    expect(call.kind === 'call' && call.text).toBe('Let me check.');
    expect(pairs(roleContent!)).toEqual([{ turn: 0, call: 'get_time', args: { city: 'Tokyo' }, content: '21:05 JST', pairing: 'position' }]);
  });
});

describe('LLaMA-Factory sharegpt (function_call / observation)', () => {
  const r = importFixture('llama-factory.json');
  const [parallel, single] = traces(r);

  it('reads a JSON array document as records with their lines', () => {
    expect(r.format).toBe('sharegpt');
    expect(r.errors).toEqual([]);
    expect(r.traces.map((t) => t.line)).toEqual([2, 25]);
  });

  it('splits a parallel function_call and its list observation by position', () => {
    expect(parallel!.system).toBe('You are a weather bot.');
    expect(parallel!.tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(pairs(parallel!)).toEqual([
      { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18}', pairing: 'position' },
      { turn: 0, call: 'get_weather', args: { city: 'Rome' }, content: '{"temp_c":25}', pairing: 'position' },
    ]);
    expect(pairs(single!)).toEqual([{ turn: 0, call: 'get_time', args: { city: 'Oslo' }, content: '10:05 CET', pairing: 'position' }]);
  });

  it('takes the task from a named field', () => {
    expect(traces(importFixture('llama-factory.json', { taskField: 'task' })).map((t) => t.task)).toEqual(['weather', 'time']);
  });
});
