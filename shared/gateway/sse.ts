// A streamed Chat Completions answer, put back together from its server-sent events: the gateway passes
// the stream through to the client byte for byte and feeds the same bytes here, so the trace records the
// message the client assembled (its text, its tool calls by index, the usage when the upstream sends
// it). Pure; text arrives in chunks that may split an event or a line anywhere. Linear: each chunk is
// scanned once for line ends, and what it keeps is capped (a line over LINE_CAP characters, or a message
// over MESSAGE_CAP, is dropped and the result says `truncated`: the client still gets every byte, the
// gateway only declines to record an answer it could not keep whole).

/** The longest event line kept for parsing, in characters. */
export const LINE_CAP = 4 * 1024 * 1024;
/** The most text and call arguments kept for one answer, in characters. */
export const MESSAGE_CAP = 16 * 1024 * 1024;
/** Tool calls are kept by index up to this many. */
const MAX_CALLS = 128;
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
  /** Part of the answer was over the caps and not kept: the message is incomplete. */
  truncated?: boolean;
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
  /** Inside a line over LINE_CAP: its characters are dropped until the next line end. */
  private overflowing = false;
  private truncated = false;
  private kept = 0;
  /** Characters scanned so far (each pushed character once, each complete line once more), for the tests that prove it is linear. */
  work = 0;

  /** Characters held for a line not yet complete (at most LINE_CAP). */
  get pendingChars(): number {
    return this.pending.length;
  }

  push(text: string): void {
    this.work += text.length;
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      if (nl === -1) break;
      const piece = text.slice(from, nl);
      from = nl + 1;
      if (this.overflowing) {
        this.overflowing = false;
        continue;
      }
      const line = this.pending + piece;
      this.pending = '';
      if (line.length > LINE_CAP) {
        this.truncated = true;
        continue;
      }
      this.work += line.length;
      this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.overflowing) return;
    const rest = text.slice(from);
    if (this.pending.length + rest.length > LINE_CAP) {
      this.overflowing = true;
      this.truncated = true;
      this.pending = '';
    } else this.pending += rest;
  }

  /** Keeps `n` more characters of the answer, or says it is over the cap. */
  private keep(n: number): boolean {
    if (this.kept + n > MESSAGE_CAP) {
      this.truncated = true;
      return false;
    }
    this.kept += n;
    return true;
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
      if (this.keep(delta.content.length)) this.content += delta.content;
      this.sawContent = true;
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const tc of delta.tool_calls) {
        if (!isObj(tc)) continue;
        const index = typeof tc.index === 'number' ? tc.index : this.calls.length;
        if (!Number.isInteger(index) || index < 0 || index >= MAX_CALLS) {
          this.truncated = true;
          continue;
        }
        const call = (this.calls[index] ??= { name: '', args: '' });
        const id = str(tc.id);
        if (id) call.id = id;
        const fn = isObj(tc.function) ? tc.function : undefined;
        if (fn) {
          const name = str(fn.name);
          if (name && this.keep(name.length)) call.name += name;
          const args = str(fn.arguments);
          if (args && this.keep(args.length)) call.args += args;
        }
      }
    }
  }

  result(): AssembledMessage {
    if (this.pending || this.overflowing) this.push('\n');
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
      ...(this.truncated ? { truncated: true } : {}),
    };
  }
}
