// OpenAI Responses records recorded against the real API (two of pydantic-ai's cassettes;
// tests/fixtures/real/SOURCE.md): a tool call continued through the Conversations API, where the second
// request sends only the tool output and its context is the conversation's earlier response; and a chat
// continued by previous_response_id. Counted here from the JSON and compared
// with the import (issue 38, item 4).
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, jsonLines, pairs, readReal } from './helpers';

const NAME = 'conversation-tool-call-continuation.jsonl';
const text = readReal('openai-responses', NAME);

type J = Record<string, unknown>;
const records = jsonLines<{ request: { conversation: string; input: J[] }; response: { id: string; output: J[] } }>(text);

function count() {
  const conversations = new Set(records.map((r) => r.request.conversation));
  const calls = records.flatMap((r) => r.response.output.filter((o) => o.type === 'function_call'));
  const outputs = records.flatMap((r) => r.request.input.filter((i) => i.type === 'function_call_output'));
  const users = records.flatMap((r) => r.request.input.filter((i) => i.role === 'user'));
  const last = records.at(-1)!.response.output.find((o) => o.type === 'message') as { content: Array<{ text: string }> };
  return {
    traces: conversations.size,
    calls: calls.length,
    observations: outputs.filter((o) => calls.some((c) => c.call_id === o.call_id)).length,
    requests: users.length,
    answer: last.content.map((c) => c.text).join(''),
  };
}

describe('Responses records chained by a Conversations API conversation (real cassette)', () => {
  const expected = count();
  const r = importText(text, { file: NAME });
  const all = r.traces.map((t) => t.trace);

  it('stitch into one trace per conversation: the tool output pairs with the call of the response before it', () => {
    expect(r.format).toBe('openai');
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.traces);
    all.forEach(expectConsistent);
    expect(all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))))).toHaveLength(expected.calls);
    const p = all.flatMap((t) => pairs(t));
    expect(p).toHaveLength(expected.observations);
    expect(p.every((x) => x.pairing === 'id')).toBe(true);
    expect(all.flatMap((t) => t.turns)).toHaveLength(expected.requests);
    expect(all[0]!.turns.at(-1)!.answer).toBe(expected.answer);
    expect(expected.observations).toBeGreaterThan(0);
  });
});

describe('Responses records chained by previous_response_id (real cassette)', () => {
  const CHAIN = 'previous-response-id.jsonl';
  const chainText = readReal('openai-responses', CHAIN);
  const chain = jsonLines<{ request: { input: J[]; previous_response_id?: string }; response: { id: string; output: J[] } }>(chainText);
  const r = importText(chainText, { file: CHAIN });
  const all = r.traces.map((t) => t.trace);

  it('stitch into one trace with a turn per request; the reasoning items stay out of the answers', () => {
    const ids = new Set(chain.map((c) => c.response.id));
    const ends = chain.filter((c) => !chain.some((d) => d.request.previous_response_id === c.response.id));
    expect(chain.every((c) => c.request.previous_response_id === undefined || ids.has(c.request.previous_response_id))).toBe(true);
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(ends.length);
    expect(r.stats.foldedRecords).toBe(chain.length - ends.length);
    all.forEach(expectConsistent);
    const answers = chain.map((c) =>
      c.response.output
        .filter((o) => o.type === 'message')
        .flatMap((o) => (o.content as Array<{ text: string }>).map((x) => x.text))
        .join(''),
    );
    expect(all[0]!.turns.map((u) => u.answer)).toEqual(answers);
    expect(all[0]!.turns.map((u) => u.request)).toEqual(chain.map((c) => c.request.input.map((i) => i.content as string).join('')));
    expect(chain.every((c) => c.response.output.some((o) => o.type === 'reasoning'))).toBe(true);
  });
});
