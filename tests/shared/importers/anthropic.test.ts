import { describe, expect, it } from 'vitest';
import { expectConsistent, importFixture, pairs, shape, traces } from './helpers';

describe('Anthropic Messages', () => {
  const r = importFixture('anthropic.jsonl');
  const [multi, server] = traces(r);

  it('detects the format and imports every record', () => {
    expect(r.format).toBe('anthropic');
    expect(r.reason).toMatch(/tool_use \/ tool_result/);
    expect(r.errors).toEqual([]);
    traces(r).forEach(expectConsistent);
  });

  it('reads top-level system, tools[].input_schema and model', () => {
    expect(multi!.system).toBe('You are a concise travel assistant.');
    expect(multi!.model).toBe('claude-sonnet-4-5');
    expect(multi!.tools).toEqual([
      { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      { name: 'get_time', description: 'Local time', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ]);
  });

  it('pairs tool_result blocks by tool_use_id, keeps is_error, and keeps the preamble text with the calls', () => {
    expect(pairs(multi!)).toEqual([
      { turn: 0, call: 'get_time', args: { city: 'Paris' }, content: '14:05 CEST', pairing: 'id', isError: false },
      { turn: 0, call: 'get_weather', args: { city: 'Paris' }, content: '{"temp_c":18,"sky":"cloudy"}', pairing: 'id' },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: 'upstream timeout after 10s', pairing: 'id', isError: true },
      { turn: 1, call: 'get_weather', args: { city: 'Lyon' }, content: '{"temp_c":21,"sky":"sunny"}', pairing: 'id' },
    ]);
    const first = multi!.turns[0]!.steps[0]!;
    expect(first.kind === 'call' && first.text).toBe('Checking both.');
    expect(first.kind === 'call' && first.calls.map((c) => c.id)).toEqual(['toolu_01A', 'toolu_01B']);
  });

  it('keeps user text sent with tool results inside the turn (not a new turn), and the final answer', () => {
    expect(multi!.turns).toHaveLength(2);
    expect(shape(multi!.turns[1]!.steps)).toEqual(['call get_weather', 'obs get_weather!', 'call get_weather', 'obs get_weather', 'msg user']);
    expect(multi!.turns[1]!.answer).toBe('Lyon: 21 °C, sunny.');
    expect(JSON.stringify(multi)).not.toContain('Two independent lookups'); // thinking blocks are not evidence
    expect(JSON.stringify(r)).not.toContain('sk-ant');
  });

  it('keeps server tool calls with their results inside the assistant turn', () => {
    expect(server!.id).toBe('msg_01XYZ');
    expect(server!.system).toBe('Use web search for news.');
    expect(server!.tools).toEqual([{ name: 'web_search' }]);
    expect(shape(server!.turns[0]!.steps)).toEqual(['call web_search', 'obs web_search']);
    const [p] = pairs(server!);
    expect(p!.pairing).toBe('id');
    expect(JSON.parse(p!.content)).toMatchObject({ url: 'https://example.org/lyon', title: 'Strike over' });
    expect(server!.turns[0]!.answer).toBe('The strike ended on Monday.');
  });
});
