// LLaMA-Factory's typed content blocks, on a slice of its own demo data (tests/fixtures/real/SOURCE.md):
// counted here straight from the JSON, then compared with what the importer made of it (issue 38, item 1).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../shared/importers';
import { expectConsistent, pairs } from './helpers';

const FILE = join(__dirname, '..', '..', 'fixtures', 'real', 'llama-factory', 'reason_tool_use_demo_15.jsonl');
const text = readFileSync(FILE, 'utf8');

interface Block {
  type: string;
  value: string;
}
interface Msg {
  role: string;
  content: Block[];
}

/** Independent count: calls = tool_call blocks, observations = tool results (a JSON list of results counts each). */
function count(): { records: number; calls: number; observations: number; answers: number; reasoning: string[]; menus: number[] } {
  const out = { records: 0, calls: 0, observations: 0, answers: 0, reasoning: [] as string[], menus: [] as number[] };
  for (const line of text.split('\n').filter((l) => l.trim())) {
    const rec = JSON.parse(line) as { messages: Msg[]; tools: string };
    out.records++;
    out.menus.push((JSON.parse(rec.tools) as unknown[]).length);
    for (const m of rec.messages) {
      if (m.role === 'assistant') {
        out.calls += m.content.filter((b) => b.type === 'tool_call').length;
        if (!m.content.some((b) => b.type === 'tool_call')) out.answers++;
        for (const b of m.content) if (b.type === 'reasoning') out.reasoning.push(b.value);
      }
      if (m.role === 'tool') {
        let v: unknown;
        try {
          v = JSON.parse(m.content[0]!.value);
        } catch {
          v = undefined;
        }
        out.observations += Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && 'content' in x) ? v.length : 1;
      }
    }
  }
  return out;
}

describe('LLaMA-Factory typed content blocks (reason_tool_use_demo, real file)', () => {
  const r = importText(text, { file: 'reason_tool_use_demo_15.jsonl' });
  const expected = count();
  const all = r.traces.map((t) => t.trace);

  it('is read as LLaMA-Factory, not as plain OpenAI chat, and every record imports', () => {
    expect(r.format).toBe('sharegpt');
    expect(r.reason).toMatch(/typed content blocks/);
    expect(r.errors).toEqual([]);
    expect(all).toHaveLength(expected.records);
    all.forEach(expectConsistent);
  });

  it('keeps every call a call, pairs every result, keeps each menu (tools given as a JSON string)', () => {
    const calls = all.flatMap((t) => t.turns.flatMap((u) => u.steps.flatMap((s) => (s.kind === 'call' ? s.calls : []))));
    expect(calls).toHaveLength(expected.calls);
    expect(all.flatMap((t) => pairs(t))).toHaveLength(expected.observations);
    expect(all.map((t) => t.tools.length)).toEqual(expected.menus);
    const parallel = pairs(all[2]!);
    expect(parallel[0]).toMatchObject({ call: 'circle_area', args: { radius: 1.5 } });
    expect(parallel[0]!.content).toContain("'area': 7.0686");
  });

  it('never puts a call or the reasoning into answer text', () => {
    const answers = all.flatMap((t) => t.turns.map((u) => u.answer)).filter((a) => a !== '');
    expect(answers).toHaveLength(expected.answers);
    for (const a of answers) {
      expect(a).not.toMatch(/"arguments"/);
      for (const thought of expected.reasoning) expect(a).not.toContain(thought.slice(0, 80));
    }
    const callText = all.flatMap((t) => t.turns.flatMap((u) => u.steps.map((s) => (s.kind === 'call' ? (s.text ?? '') : ''))));
    for (const t of callText) for (const thought of expected.reasoning) expect(t).not.toContain(thought.slice(0, 80));
  });

  it('refuses, rather than guesses, a chat record whose content holds a call block it cannot map', () => {
    const line = JSON.stringify({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'function_call', value: '{"name": "f", "arguments": {}}' }] },
        { role: 'tool', content: 'ok' },
      ],
    });
    const refused = importText(line, { file: 'x.jsonl' });
    expect(refused.traces).toEqual([]);
    expect(refused.errors.map((e) => e.message).join(' ') + (refused.fatal ?? '')).toMatch(/function_call/);
    const forced = importText(line, { file: 'x.jsonl', format: 'openai' });
    expect(forced.traces).toEqual([]);
    expect(forced.errors[0]!.message).toMatch(
      /messages\[1\]\.content\[0\].*cannot map it to a call|messages\[1\]\.content\[0\].*cannot map to a call|cannot map/,
    );
  });
});
