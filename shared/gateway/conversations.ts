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

/** Two 32-bit FNV-style lanes over a message's shape, chained from the hash of the messages before it. */
function chain(h: readonly [number, number], shape: string): [number, number] {
  let a = h[0] ^ shape.length;
  let b = h[1] ^ Math.imul(shape.length, 0x9e3779b1);
  for (let i = 0; i < shape.length; i++) {
    const c = shape.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0];
}

export interface OpenExchange<T> {
  id: string;
  value: T;
  /** When it was opened, in ms (the caller's clock). */
  at: number;
}

interface Entry<T> {
  shapes: string[];
  exchange: OpenExchange<T>;
}

/**
 * The open exchanges, found by the hash of their messages' shapes (a prefix hash, so a request of n
 * messages is matched in time linear in its size: each message's shape is computed once, and a
 * candidate is compared in full only when its hash matches). Several identical open exchanges (three
 * agents asking the same thing) are all kept, and continued first in, first out.
 */
export class OpenExchanges<T> {
  private readonly open = new Map<string, Entry<T>[]>();
  private count = 0;
  /** Work done so far (shapes computed, hashed and compared), for the tests that prove it is linear. */
  work = 0;

  get size(): number {
    return this.count;
  }

  private shapes(messages: readonly unknown[]): string[] {
    this.work += messages.length;
    return messages.map((m) => JSON.stringify(messageShape(m)));
  }

  private keys(shapes: readonly string[]): string[] {
    const keys: string[] = [];
    let h: [number, number] = [0x811c9dc5, 0x2545f491];
    for (const [i, s] of shapes.entries()) {
      h = chain(h, s);
      keys.push(`${i + 1}:${h[0].toString(36)}:${h[1].toString(36)}`);
    }
    this.work += shapes.length;
    return keys;
  }

  /** Keep an exchange open: `messages` are its request's messages followed by its answer. */
  add(messages: readonly unknown[], exchange: OpenExchange<T>): void {
    const shapes = this.shapes(messages);
    const key = this.keys(shapes).at(-1) ?? '0';
    const list = this.open.get(key);
    if (list) list.push({ shapes, exchange });
    else this.open.set(key, [{ shapes, exchange }]);
    this.count++;
  }

  /** The open exchange these request messages continue (the longest one, ending at an assistant
   * message), taken out; undefined when they continue none. */
  take(messages: readonly unknown[]): OpenExchange<T> | undefined {
    if (this.count === 0) return undefined;
    const shapes = this.shapes(messages);
    const keys = this.keys(shapes);
    for (let end = messages.length; end > 0; end--) {
      const last = messages[end - 1];
      if (!isObj(last) || last.role !== 'assistant') continue;
      const key = keys[end - 1]!;
      const list = this.open.get(key);
      if (!list) continue;
      const at = list.findIndex((e) => this.same(e.shapes, shapes, end));
      if (at === -1) continue;
      const [found] = list.splice(at, 1);
      if (list.length === 0) this.open.delete(key);
      this.count--;
      return found!.exchange;
    }
    return undefined;
  }

  private same(a: readonly string[], b: readonly string[], n: number): boolean {
    if (a.length !== n) return false;
    this.work += n;
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** The exchanges idle since before `before` (ms), taken out. */
  expired(before: number): OpenExchange<T>[] {
    const out: OpenExchange<T>[] = [];
    for (const [key, list] of this.open) {
      const stay = list.filter((e) => e.exchange.at >= before);
      for (const e of list) if (e.exchange.at < before) out.push(e.exchange);
      if (stay.length === 0) this.open.delete(key);
      else this.open.set(key, stay);
    }
    this.count -= out.length;
    return out;
  }

  drain(): OpenExchange<T>[] {
    const all = [...this.open.values()].flatMap((l) => l.map((e) => e.exchange));
    this.open.clear();
    this.count = 0;
    return all;
  }
}
