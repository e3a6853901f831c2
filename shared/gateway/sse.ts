// A streamed Chat Completions answer, put back together from its server-sent events: the gateway passes
// the stream through to the client byte for byte and feeds the same bytes here, so the trace records the
// message the client assembled (its text, its tool calls by index, the usage when the upstream sends
// it). Pure; text arrives in chunks that may split an event or a line anywhere.
import { isObj, str, type Obj } from '../importers/values';

interface CallParts {
  id?: string;
  name: string;
  args: string;
}

export interface AssembledMessage {
  message: { role: 'assistant'; content: string | null; tool_calls?: { id?: string; type: 'function'; function: { name: string; arguments: string } }[] };
  finishReason?: string;
  usage?: Obj;
  model?: string;
  id?: string;
  /** An `error` object the upstream sent inside the stream. */
  error?: Obj;
  /** Whether the terminating `data: [DONE]` was seen. */
  done: boolean;
}

export class SseAssembler {
  private pending = '';
  private content = '';
  private sawContent = false;
  private readonly calls: CallParts[] = [];
  private finishReason?: string;
  private usage?: Obj;
  private model?: string;
  private id?: string;
  private error?: Obj;
  private done = false;

  push(text: string): void {
    this.pending += text;
    for (;;) {
      const nl = this.pending.indexOf('\n');
      if (nl === -1) break;
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return; // not ours to judge: the client gets the bytes as they were
    }
    if (!isObj(chunk)) return;
    if (isObj(chunk.error)) this.error = chunk.error;
    this.id ??= str(chunk.id);
    this.model ??= str(chunk.model);
    if (isObj(chunk.usage)) this.usage = chunk.usage;
    const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObj(choice)) return;
    const reason = str(choice.finish_reason);
    if (reason) this.finishReason = reason;
    const delta = choice.delta;
    if (!isObj(delta)) return;
    if (typeof delta.content === 'string') {
      this.content += delta.content;
      this.sawContent = true;
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const tc of delta.tool_calls) {
        if (!isObj(tc)) continue;
        const index = typeof tc.index === 'number' ? tc.index : this.calls.length;
        const call = (this.calls[index] ??= { name: '', args: '' });
        const id = str(tc.id);
        if (id) call.id = id;
        const fn = isObj(tc.function) ? tc.function : undefined;
        if (fn) {
          const name = str(fn.name);
          if (name) call.name += name;
          const args = str(fn.arguments);
          if (args) call.args += args;
        }
      }
    }
  }

  result(): AssembledMessage {
    if (this.pending) this.push('\n');
    const calls = this.calls.filter((c) => c.name !== '');
    return {
      message: {
        role: 'assistant',
        content: this.sawContent ? this.content : null,
        ...(calls.length
          ? { tool_calls: calls.map((c) => ({ ...(c.id ? { id: c.id } : {}), type: 'function' as const, function: { name: c.name, arguments: c.args } })) }
          : {}),
      },
      ...(this.finishReason ? { finishReason: this.finishReason } : {}),
      ...(this.usage ? { usage: this.usage } : {}),
      ...(this.model ? { model: this.model } : {}),
      ...(this.id ? { id: this.id } : {}),
      ...(this.error ? { error: this.error } : {}),
      done: this.done,
    };
  }
}
