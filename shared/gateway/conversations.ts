// An agent's loop reaches the gateway as a chain of requests: the first asks, the answer calls tools, the
// next request carries those calls and their observations and asks again. One trace per chain, not one per
// request: an exchange whose answer calls tools stays open until a request continues it (its messages
// start with the open exchange's messages and answer), and the continuation takes over its trace id and
// records everything, observations included. An exchange nobody continues is recorded as it is (its
// calls are the turn's frozen target) once it has been idle long enough, or when the gateway stops.
// Pure: messages are compared by what a trace keeps of them (role, text, calls, call ids).
import { argumentsOf, contentText, isObj, str } from '../importers/values';

function callKey(tc: unknown): unknown {
  if (!isObj(tc)) return tc;
  const fn = isObj(tc.function) ? tc.function : tc;
  return [str(tc.id) ?? '', str(fn.name) ?? '', argumentsOf(fn.arguments)];
}

/** One message as a trace keeps it, for comparing a request's history with an answer sent earlier. */
function messageShape(m: unknown): unknown {
  if (!isObj(m)) return m;
  return [str(m.role) ?? '', contentText(m.content), Array.isArray(m.tool_calls) ? m.tool_calls.map(callKey) : [], str(m.tool_call_id) ?? ''];
}

export function conversationKey(messages: readonly unknown[]): string {
  return JSON.stringify(messages.map(messageShape));
}

export interface OpenExchange<T> {
  id: string;
  value: T;
  /** When it was opened, in ms (the caller's clock). */
  at: number;
}

export class OpenExchanges<T> {
  private readonly open = new Map<string, OpenExchange<T>>();

  get size(): number {
    return this.open.size;
  }

  /** Keep an exchange open: `messages` are its request's messages followed by its answer. */
  add(messages: readonly unknown[], exchange: OpenExchange<T>): void {
    this.open.set(conversationKey(messages), exchange);
  }

  /** The open exchange these request messages continue (the longest one, ending at an assistant
   * message), taken out; undefined when they continue none. */
  take(messages: readonly unknown[]): OpenExchange<T> | undefined {
    for (let end = messages.length; end > 0; end--) {
      const last = messages[end - 1];
      if (!isObj(last) || last.role !== 'assistant') continue;
      const key = conversationKey(messages.slice(0, end));
      const found = this.open.get(key);
      if (found) {
        this.open.delete(key);
        return found;
      }
    }
    return undefined;
  }

  /** The exchanges idle since before `before` (ms), taken out. */
  expired(before: number): OpenExchange<T>[] {
    const out: OpenExchange<T>[] = [];
    for (const [key, e] of this.open) {
      if (e.at < before) {
        out.push(e);
        this.open.delete(key);
      }
    }
    return out;
  }

  drain(): OpenExchange<T>[] {
    const all = [...this.open.values()];
    this.open.clear();
    return all;
  }
}
