// OpenAI Responses API items → conversation items. Calls and results pair by `call_id` (not the item `id`);
// consecutive call items form one parallel call step; built-in tool calls carry their own results.
import type { ConvItem, NCall, NResult } from './conversation';
import type { ItemsOrError } from './openai-chat';
import { builtinToolName } from './tools';
import { argumentsOf, asText, contentText, idOf, isObj, quote, str, typeName, type Obj } from './values';

export function responseItemsToItems(list: unknown[], path: string, out: ConvItem[] = []): ItemsOrError {
  let open: { calls: NCall[]; inline: NResult[] } | null = null;
  const flush = (): void => {
    if (!open) return;
    out.push({ role: 'assistant', text: '', calls: open.calls, results: open.inline.length ? open.inline : undefined });
    open = null;
  };
  for (let i = 0; i < list.length; i++) {
    const it = list[i];
    const where = `${path}[${i}]`;
    if (!isObj(it)) return { ok: false, message: `${where}: expected an input/output item object, got ${typeName(it)}` };
    const type = str(it.type) ?? 'message';
    if (type === 'message') {
      flush();
      const role = str(it.role);
      const text = contentText(it.content);
      if (role === 'user') out.push({ role: 'user', text });
      else if (role === 'system' || role === 'developer') out.push({ role: 'system', text });
      else if (role === 'assistant') out.push({ role: 'assistant', text, calls: [] });
      else
        return {
          ok: false,
          message: `${where}.role: ${role === undefined ? 'missing' : `unknown role ${quote(role)}`} (expected user, system, developer or assistant)`,
        };
      continue;
    }
    if (type.endsWith('_call_output')) {
      flush();
      const callId = idOf(it.call_id) ?? idOf(it.id);
      if (!callId) return { ok: false, message: `${where}.call_id: a ${type} item needs the call_id of the call it answers` };
      out.push({ role: 'tool', results: [{ callId, content: contentText(it.output), where }] });
      continue;
    }
    if (type.endsWith('_call')) {
      const call = callOf(it, type, where);
      if (typeof call === 'string') return { ok: false, message: call };
      open ??= { calls: [], inline: [] };
      open.calls.push(call.call);
      if (call.inline) open.inline.push(call.inline);
      continue;
    }
    // reasoning, item_reference and item types this build does not know: not part of the tool evidence.
  }
  flush();
  return { ok: true, items: out };
}

function callOf(it: Obj, type: string, where: string): { call: NCall; inline?: NResult } | string {
  if (type === 'function_call' || type === 'custom_tool_call' || type === 'mcp_call') {
    const name = str(it.name)?.trim();
    if (!name) return `${where}.name: missing tool name`;
    const id = type === 'mcp_call' ? idOf(it.id) : idOf(it.call_id);
    if (!id && type !== 'mcp_call') return `${where}.call_id: missing (a ${type} item is paired to its output by call_id)`;
    const args = type === 'custom_tool_call' ? it.input : argumentsOf(it.arguments);
    const call: NCall = { id, name, arguments: args };
    if (type === 'mcp_call' && (it.output !== undefined || it.error !== undefined)) {
      const failed = it.error !== undefined && it.error !== null;
      return { call, inline: { callId: id, content: failed ? asText(it.error) : contentText(it.output), isError: failed || undefined, where } };
    }
    return { call };
  }
  // Built-in tools (web_search_call, file_search_call, code_interpreter_call, computer_call, …).
  const name = builtinToolName(type);
  const callId = idOf(it.call_id);
  // Without any id the item's position names it, so its inline result still pairs exactly.
  const id = callId ?? idOf(it.id) ?? where;
  const args = it.action ?? it.queries ?? it.code ?? it.arguments;
  const call: NCall = { id, name, arguments: args === undefined ? undefined : argumentsOf(args) };
  if (callId) return { call };
  const output = it.results ?? it.outputs ?? it.output ?? it.result;
  if (output === undefined || output === null) return { call };
  const failed = str(it.status) === 'failed';
  return { call, inline: { callId: id, content: contentText(output) || asText(output), isError: failed || undefined, where } };
}
