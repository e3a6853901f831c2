// OpenAI Chat Completions messages → conversation items. Results pair by `tool_call_id`; legacy
// `function` messages (no id) pair by name and order.
import type { ConvItem, NCall } from './conversation';
import { argumentsOf, callLikeBlock, contentText, idOf, isObj, quote, str, typeName } from './values';

export type ItemsOrError = { ok: true; items: ConvItem[] } | { ok: false; message: string };

export function chatMessagesToItems(messages: unknown[], path: string): ItemsOrError {
  const items: ConvItem[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const where = `${path}[${i}]`;
    if (!isObj(m)) return { ok: false, message: `${where}: expected a message object, got ${typeName(m)}` };
    const role = str(m.role);
    // A call inside `content` (a typed block this reader does not map) must never become text.
    const callBlock = callLikeBlock(m.content);
    if (callBlock !== undefined)
      return {
        ok: false,
        message: `${where}.content[${callBlock.index}]: a ${quote(callBlock.type)} content block, which the OpenAI chat reader cannot map to a call; the record is refused rather than its call read as answer text (pass --format with the format that wrote it)`,
      };
    switch (role) {
      case 'system':
      case 'developer':
        items.push({ role: 'system', text: contentText(m.content) });
        break;
      case 'user':
        items.push({ role: 'user', text: contentText(m.content) });
        break;
      case 'assistant': {
        const calls = callsOf(m, where);
        if (typeof calls === 'string') return { ok: false, message: calls };
        items.push({ role: 'assistant', text: contentText(m.content), calls });
        break;
      }
      case 'tool':
      case 'ipython': {
        const callId = idOf(m.tool_call_id);
        const name = str(m.name);
        items.push({
          role: 'tool',
          results: [{ callId, name, content: contentText(m.content), where, pairing: callId ? 'id' : name ? 'name-order' : 'position' }],
        });
        break;
      }
      case 'function': {
        const name = str(m.name);
        if (!name) return { ok: false, message: `${where}.name: a legacy "function" message needs the name of the function it answers` };
        items.push({ role: 'tool', results: [{ name, content: contentText(m.content), where, pairing: 'name-order' }] });
        break;
      }
      default:
        return {
          ok: false,
          message: `${where}.role: ${role === undefined ? 'missing' : `unknown role ${quote(role)}`} (expected system, developer, user, assistant, tool or function)`,
        };
    }
  }
  return { ok: true, items };
}

function callsOf(m: Record<string, unknown>, where: string): NCall[] | string {
  const calls: NCall[] = [];
  if (Array.isArray(m.tool_calls)) {
    for (let k = 0; k < m.tool_calls.length; k++) {
      const tc: unknown = m.tool_calls[k];
      const at = `${where}.tool_calls[${k}]`;
      if (!isObj(tc)) return `${at}: expected a tool call object, got ${typeName(tc)}`;
      if (isObj(tc.custom)) {
        const name = str(tc.custom.name);
        if (!name) return `${at}.custom.name: missing tool name`;
        calls.push({ id: idOf(tc.id), name, arguments: tc.custom.input });
        continue;
      }
      const fn = isObj(tc.function) ? tc.function : tc;
      const name = str(fn.name)?.trim();
      if (!name) return `${at}.function.name: missing tool name`;
      calls.push({ id: idOf(tc.id), name, arguments: argumentsOf(fn.arguments) });
    }
  }
  if (isObj(m.function_call)) {
    const name = str(m.function_call.name)?.trim();
    if (!name) return `${where}.function_call.name: missing function name`;
    calls.push({ name, arguments: argumentsOf(m.function_call.arguments) });
  }
  return calls;
}
