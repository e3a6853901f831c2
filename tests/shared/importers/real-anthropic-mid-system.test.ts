// Anthropic Messages requests with `system` messages in the middle of `messages`, recorded against the
// real API (three of pydantic-ai's cassettes in `test_anthropic_mid_conversation_system/`;
// tests/fixtures/real/SOURCE.md): after a tool result, between a user and an assistant message, and two
// in a row after two user messages. Before issue 38 item 4 each record was rejected ("unknown role
// system"). Counted here from the JSON and compared with the import: every system message is a system
// step at the place it had in the conversation.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import type { Trace } from '../../../shared/trace/schema';
import { expectConsistent, jsonLines, pairs, readReal } from './helpers';

const NAME = 'mid-conversation-system.jsonl';
const text = readReal('anthropic', NAME);

type Block = { type: string; text?: string; name?: string };
type Message = { role: string; content: Block[] };
const records = jsonLines<{ request: { system: string; messages: Message[]; tools?: Array<{ name: string }> }; response: { content: Block[] } }>(text);

const isText = (m: Message) => m.content.every((b) => b.type === 'text');
const textOf = (m: Message) => m.content.map((b) => b.text ?? '').join('');

/** The conversation as a sequence, read from the JSON: user / assistant text, calls, results, system messages. */
function sequenceOfJson(r: (typeof records)[number]): string[] {
  const all: Message[] = [...r.request.messages, { role: 'assistant', content: r.response.content }];
  return all.flatMap((m) => {
    if (m.role === 'system') return [`system: ${textOf(m)}`];
    if (m.role === 'user') return isText(m) ? ['user'] : m.content.filter((b) => b.type === 'tool_result').map(() => 'result');
    return m.content.map((b) => (b.type === 'tool_use' ? `call ${b.name}` : 'assistant'));
  });
}

/** The same sequence, read from the imported trace. */
function sequenceOfTrace(t: Trace): string[] {
  return t.turns.flatMap((u) => [
    'user',
    ...u.steps.flatMap((s) => {
      if (s.kind === 'call') return s.calls.map((c) => `call ${c.name}`);
      if (s.kind === 'observation') return ['result'];
      if (s.kind === 'message') return [s.role === 'system' ? `system: ${s.content}` : s.role];
      return ['lines'];
    }),
    ...(u.answer ? ['assistant'] : []),
  ]);
}

function count() {
  let turns = 0;
  let systems = 0;
  let calls = 0;
  let observations = 0;
  let answers = 0;
  for (const r of records) {
    const ms = r.request.messages;
    // A turn begins at a user text message that opens the conversation or follows an assistant message.
    turns += ms.filter((m, i) => m.role === 'user' && isText(m) && (i === 0 || ms[i - 1]!.role === 'assistant')).length;
    systems += ms.filter((m) => m.role === 'system').length;
    const blocks = [...ms.flatMap((m) => m.content), ...r.response.content];
    calls += blocks.filter((b) => b.type === 'tool_use').length;
    observations += blocks.filter((b) => b.type === 'tool_result').length;
    answers += ms.filter((m) => m.role === 'assistant' && isText(m)).length + (r.response.content.every((b) => b.type === 'text') ? 1 : 0);
  }
  return { traces: records.length, turns, systems, calls, observations, answers };
}

describe('Anthropic requests with system messages mid-conversation (real cassettes)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('the file is what the test is about: every record has a system message after its first message', () => {
    expect(records.every((x) => x.request.messages.slice(1).some((m) => m.role === 'system'))).toBe(true);
    expect(expected.systems).toBeGreaterThan(records.length);
  });

  it('imports every record (none rejected) with turns, calls, results and answers as counted from the JSON', () => {
    expect(r.format).toBe('anthropic');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.traces);
    all.forEach(expectConsistent);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.turns);
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    const p = all.flatMap((t) => pairs(t));
    expect(p).toHaveLength(expected.observations);
    expect(p.every((x) => x.pairing === 'id')).toBe(true);
    expect(all.flatMap((t) => t.turns.filter((u) => u.answer !== ''))).toHaveLength(expected.answers);
    expect(all.map((t) => t.system)).toEqual(records.map((x) => x.request.system));
  });

  it('keeps each system message as a system step where it was in the conversation', () => {
    const steps = all.flatMap((t) => t.turns.flatMap((u) => u.steps.filter((s) => s.kind === 'message' && s.role === 'system')));
    expect(steps).toHaveLength(expected.systems);
    expect(all.map(sequenceOfTrace)).toEqual(records.map(sequenceOfJson));
    expect(all.every((t) => t.turns.at(-1)!.answer !== '' && t.turns.at(-1)!.target === undefined)).toBe(true);
  });
});
