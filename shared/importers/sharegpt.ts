// ShareGPT-style conversations with function calling: Hermes (`<tools>`, `<tool_call>`, `<tool_response>`
// tags), `from`/`value` or `role`/`content` keys, and LLaMA-Factory's `function_call` / `observation` roles.
// No ids: the n-th result answers the n-th open call, checked against the name the response carries.
import type { ToolDef } from '../trace/schema';
import type { ConvItem, NCall, NResult } from './conversation';
import { failed, fromDraft } from './record-outcome';
import { extractTagged, parsePayload } from './tags';
import { pickTask } from './task';
import { toolDefsOf } from './tools';
import type { ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { argumentsOf, asText, CALL_LIKE, callLikeBlock, contentText, idOf, isObj, quote, str, typeName, type Obj } from './values';

const SYSTEM = new Set(['system']);
const USER = new Set(['human', 'user']);
const ASSISTANT = new Set(['gpt', 'assistant', 'model', 'chatgpt', 'bot']);
const RESULT = new Set(['tool', 'observation', 'function_response', 'tool_response', 'ipython']);
const CALL = new Set(['function_call', 'tool_call']);

export const sharegptFormat: RecordFormat = {
  id: 'sharegpt',
  kind: 'record',
  label: 'ShareGPT / Hermes / LLaMA-Factory conversations',
  recognize(value) {
    const turns = turnsOf(value);
    if (!turns) return null;
    const fromValue = turns.some((m) => isObj(m) && typeof m.from === 'string' && 'value' in m);
    const lf = turns.some(
      (m) => isObj(m) && (m.from === 'function_call' || m.from === 'observation' || m.role === 'function_call' || m.role === 'observation'),
    );
    if (lf) return { score: 12, reason: 'conversations use the function_call / observation roles (LLaMA-Factory)' };
    // LLaMA-Factory v1: `content` is a list of typed blocks ({type: "text" | "reasoning" | "tool_call", value}).
    if (turns.some((m) => isObj(m) && typedBlocks(m.content) !== undefined))
      return { score: 14, reason: 'messages hold typed content blocks {type: text | reasoning | tool_call, value} (LLaMA-Factory)' };
    const tags = turns.some((m) => isObj(m) && /<tool_call>|<tool_response>|<tools>/.test(textOf(m).slice(0, 100_000)));
    if (tags)
      return {
        score: 12,
        reason: `conversations${fromValue ? ' (from/value)' : ''} carry <tool_call> / <tool_response> / <tools> tags (Hermes function calling)`,
      };
    if (fromValue) return { score: 9, reason: 'records have "conversations" with from/value turns (ShareGPT)' };
    return null;
  },
  parseRecord: parseShareGptRecord,
};

function turnsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (!isObj(value)) return undefined;
  if (Array.isArray(value.conversations)) return value.conversations as unknown[];
  if (Array.isArray(value.conversation)) return value.conversation as unknown[];
  if (Array.isArray(value.messages)) return value.messages as unknown[];
  return undefined;
}

function textOf(m: Obj): string {
  return contentText(m.value ?? m.content);
}

export function parseShareGptRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  const v = record.value;
  const turns = turnsOf(v);
  if (!turns) return failed(record, options, `expected an object with a "conversations" (or "messages") array, got ${typeName(v)}`);
  const rec: Obj = isObj(v) ? v : {};
  const path = Array.isArray(v) ? '' : Array.isArray(rec.conversations) ? 'conversations' : Array.isArray(rec.conversation) ? 'conversation' : 'messages';
  const items: ConvItem[] = [];
  let tools: ToolDef[] = toolDefsOf(rec.tools);
  const system = str(rec.system);
  if (system) {
    items.push({ role: 'system', text: system });
    if (!tools.length) tools = toolsInText(system);
  }
  let lastCallCount = 0;
  for (let i = 0; i < turns.length; i++) {
    const m = turns[i];
    const where = `${path}[${i}]`;
    if (!isObj(m)) return failed(record, options, `${where}: expected a turn object, got ${typeName(m)}`);
    const role = (str(m.from) ?? str(m.role) ?? '').toLowerCase();
    const blocks = typedBlocks(m.content);
    if (blocks) {
      const problem = addTypedMessage(role, blocks, where, items, lastCallCount);
      if (typeof problem === 'string') return failed(record, options, problem);
      lastCallCount = problem.calls;
      continue;
    }
    const callBlock = callLikeBlock(m.value ?? m.content);
    if (callBlock !== undefined)
      return failed(
        record,
        options,
        `${where}.content[${callBlock.index}]: a ${quote(callBlock.type)} block that this reader cannot map to a call; the record is refused rather than its call read as answer text`,
      );
    const text = textOf(m);
    if (SYSTEM.has(role)) {
      items.push({ role: 'system', text });
      if (!tools.length) tools = toolsInText(text);
    } else if (USER.has(role)) {
      const responses = extractTagged(text, 'tool_response');
      if (responses.blocks.length) items.push({ role: 'user', text: responses.rest, results: responsesOf(responses.blocks, where) });
      else items.push({ role: 'user', text });
    } else if (ASSISTANT.has(role)) {
      const tagged = extractTagged(text, 'tool_call');
      const calls: NCall[] = [];
      for (let k = 0; k < tagged.blocks.length; k++) {
        const got = callsOfPayload(tagged.blocks[k]!, `${where} <tool_call> #${k + 1}`);
        if (typeof got === 'string') return failed(record, options, got);
        calls.push(...got);
      }
      lastCallCount = calls.length;
      items.push({ role: 'assistant', text: calls.length ? tagged.rest : text, calls });
    } else if (CALL.has(role) || (role === 'function' && looksLikeCall(text))) {
      const got = callsOfPayload(text, where);
      if (typeof got === 'string') return failed(record, options, got);
      lastCallCount = got.length;
      items.push({ role: 'assistant', text: '', calls: got });
    } else if (RESULT.has(role) || role === 'function') {
      const responses = extractTagged(text, 'tool_response');
      const results = responses.blocks.length ? responsesOf(responses.blocks, where) : plainResults(text, lastCallCount, where);
      items.push({ role: 'tool', results });
    } else {
      return failed(
        record,
        options,
        `${where}: unknown ${m.from !== undefined ? 'from' : 'role'} ${quote(role)} (expected system, human/user, gpt/assistant, tool, function_call or observation)`,
      );
    }
  }
  return fromDraft(
    {
      id: idOf(rec.id),
      idPrefix: 'sharegpt',
      format: 'sharegpt',
      tools,
      model: str(rec.model),
      task: pickTask([rec], options.taskField, undefined),
      items,
    },
    record,
    options,
  );
}

function looksLikeCall(text: string): boolean {
  const p = parsePayload(text);
  if (!p.ok) return false;
  const first: unknown = Array.isArray(p.value) ? p.value[0] : p.value;
  return isObj(first) && typeof first.name === 'string' && ('arguments' in first || 'parameters' in first);
}

function callsOfPayload(payload: string, where: string): NCall[] | string {
  const parsed = parsePayload(payload);
  if (!parsed.ok) return `${where}: the call is neither JSON nor a Python literal: ${quote(payload.trim())}`;
  const list = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const calls: NCall[] = [];
  for (const c of list) {
    if (!isObj(c)) return `${where}: expected {"name": …, "arguments": …}, got ${typeName(c)}`;
    const fn = isObj(c.function) ? c.function : c;
    const name = str(fn.name)?.trim();
    if (!name) return `${where}: the call has no "name"`;
    calls.push({ id: idOf(c.id), name, arguments: argumentsOf(fn.arguments ?? fn.parameters) });
  }
  return calls;
}

function responsesOf(blocks: string[], where: string): NResult[] {
  return blocks.map((b) => {
    const parsed = parsePayload(b);
    if (parsed.ok && isObj(parsed.value) && 'content' in parsed.value) {
      const name = str(parsed.value.name);
      return { name, content: asText(parsed.value.content), pairing: 'position', where };
    }
    return { content: b.trim(), pairing: 'position', where };
  });
}

/** An observation without tags: one result, or one per call when it is a JSON list matching a parallel call. */
function plainResults(text: string, openCalls: number, where: string): NResult[] {
  if (openCalls > 1) {
    const parsed = parsePayload(text);
    if (parsed.ok && Array.isArray(parsed.value) && parsed.value.length === openCalls) {
      return parsed.value.map((x): NResult => {
        // LLaMA-Factory lists parallel results as [{tool_call_id, name, content}, …]: the content is the output.
        if (isObj(x) && 'content' in x && (typeof x.name === 'string' || 'tool_call_id' in x))
          return { name: str(x.name), content: typeof x.content === 'string' ? x.content : asText(x.content), pairing: 'position', where };
        return { content: typeof x === 'string' ? x : asText(x), pairing: 'position', where };
      });
    }
  }
  return [{ content: text, pairing: 'position', where }];
}

/** The menu inside a system prompt's `<tools>…</tools>` block. */
function toolsInText(text: string): ToolDef[] {
  const tagged = extractTagged(text, 'tools');
  const out: ToolDef[] = [];
  for (const block of tagged.blocks) {
    const parsed = parsePayload(block);
    if (parsed.ok) out.push(...toolDefsOf(Array.isArray(parsed.value) ? parsed.value : [parsed.value]));
  }
  return out;
}

interface TypedBlock {
  type: string;
  value: unknown;
}

/** LLaMA-Factory v1's typed content: every part an object with a string `type` and a `value` (no `text`). */
function typedBlocks(content: unknown): TypedBlock[] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const out: TypedBlock[] = [];
  for (const b of content) {
    if (!isObj(b) || typeof b.type !== 'string' || !('value' in b) || 'text' in b) return undefined;
    out.push({ type: b.type, value: b.value });
  }
  return out;
}

/**
 * One message of typed blocks: `text` is what the role said, `reasoning` is kept out of the answer (and out of
 * the call text), `tool_call` values are calls ({"name", "arguments"} as JSON text or an object). A block of any
 * other type refuses the record: guessing could turn a call into answer text.
 */
function addTypedMessage(role: string, blocks: TypedBlock[], where: string, items: ConvItem[], openCalls: number): { calls: number } | string {
  const texts: string[] = [];
  const calls: NCall[] = [];
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!;
    const at = `${where}.content[${k}]`;
    if (b.type === 'text') texts.push(typeof b.value === 'string' ? b.value : asText(b.value));
    else if (b.type === 'reasoning' || b.type === 'thinking') continue;
    else if (b.type === 'tool_call') {
      if (!ASSISTANT.has(role)) return `${at}: a tool_call block in a ${quote(role)} message; only the assistant calls tools`;
      const got = callsOfPayload(typeof b.value === 'string' ? b.value : asText(b.value), at);
      if (typeof got === 'string') return got;
      calls.push(...got);
    } else if (CALL_LIKE.test(b.type))
      return `${at}: a ${quote(b.type)} block that this reader cannot map to a call; the record is refused rather than its call read as answer text`;
    else if (BINARY_TYPES.has(b.type)) texts.push(`[${b.type}]`);
    else return `${at}: unknown block type ${quote(b.type)} (expected text, reasoning or tool_call)`;
  }
  const text = texts.join('\n');
  if (SYSTEM.has(role)) items.push({ role: 'system', text });
  else if (USER.has(role)) items.push({ role: 'user', text });
  else if (ASSISTANT.has(role)) {
    items.push({ role: 'assistant', text, calls });
    return { calls: calls.length };
  } else if (RESULT.has(role) || role === 'function') items.push({ role: 'tool', results: plainResults(text, openCalls, where) });
  else return `${where}: unknown role ${quote(role)} (expected system, user, assistant or tool)`;
  return { calls: openCalls };
}

const BINARY_TYPES = new Set(['image', 'video', 'audio', 'image_url', 'file']);
