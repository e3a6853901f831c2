// OpenAI Responses records chained by `previous_response_id` (or by a Conversations API `conversation`,
// where each request continues the conversation's last response before it): a request that continues an earlier response
// sends only the new input (tool outputs, a new user message); its context is the earlier response's input
// and output. Within one file the chain is stitched: the records are held until the file ends, and each
// chain's last record becomes one trace whose history is the whole chain (the records before it are part
// of that trace, not traces of their own). A record whose predecessor is not in the file is read alone.
import type { SourceRecord } from './types';
import { arr, isObj, str, type Obj } from './values';

interface Link {
  record: SourceRecord;
  id?: string;
  previous?: string;
  /** The Conversations API's `conversation` it belongs to: it continues the conversation's last response before it. */
  conversation?: string;
}

function requestOf(v: Obj): Obj {
  if (isObj(v.request)) return v.request;
  if (isObj(v.body) && v.body.input !== undefined) return v.body;
  return v;
}

function responseOf(v: Obj): Obj | undefined {
  const r = v.response;
  if (isObj(r)) return isObj(r.body) ? r.body : r;
  return v.object === 'response' ? v : undefined;
}

/** The chain facts of a Responses record (its response id, the id it continues), or undefined. */
export function chainLink(record: SourceRecord): Link | undefined {
  const v = record.value;
  if (!isObj(v)) return undefined;
  const req = requestOf(v);
  const res = responseOf(v);
  const previous = str(req.previous_response_id) ?? str(res?.previous_response_id);
  const id = str(res?.id);
  const conversation = conversationId(req.conversation) ?? conversationId(res?.conversation);
  if (!previous && !conversation && !(id && req.input !== undefined)) return undefined;
  return { record, id, previous, ...(conversation ? { conversation } : {}) };
}

/** `conversation` as the request gives it (an id or `{id}`) or the response echoes it (`{id}`). */
function conversationId(v: unknown): string | undefined {
  return str(v) ?? (isObj(v) ? str(v.id) : undefined);
}

function asInputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return arr(input);
}

export class ResponsesChains {
  private readonly links: Link[] = [];
  private readonly byId = new Map<string, Link>();
  /** The last response held of each conversation (Conversations API), in file order. */
  private readonly lastOfConversation = new Map<string, Link>();

  hold(link: Link): void {
    if (link.conversation) {
      const before = this.lastOfConversation.get(link.conversation);
      if (!link.previous && before?.id) link.previous = before.id;
      if (link.id) this.lastOfConversation.set(link.conversation, link);
    }
    this.links.push(link);
    if (link.id && !this.byId.has(link.id)) this.byId.set(link.id, link);
  }

  get size(): number {
    return this.links.length;
  }

  /** One record per chain end, its input the whole chain's input and output items, in file order. */
  finish(): SourceRecord[] {
    const continued = new Set<Link>();
    for (const l of this.links) {
      const parent = l.previous ? this.byId.get(l.previous) : undefined;
      if (parent && parent !== l) continued.add(parent);
    }
    const out: SourceRecord[] = [];
    for (const l of this.links) {
      if (continued.has(l)) continue;
      const chain: Link[] = [l];
      const seen = new Set<Link>([l]);
      for (let p = l.previous ? this.byId.get(l.previous) : undefined; p && !seen.has(p); p = p.previous ? this.byId.get(p.previous) : undefined) {
        chain.unshift(p);
        seen.add(p);
      }
      if (chain.length === 1) {
        out.push(l.record);
        continue;
      }
      const input: unknown[] = [];
      for (const link of chain.slice(0, -1)) {
        const v = link.record.value as Obj;
        input.push(...asInputItems(requestOf(v).input), ...arr(responseOf(v)?.output));
      }
      const lastValue = l.record.value as Obj;
      const req = requestOf(lastValue);
      const first = requestOf(chain[0]!.record.value as Obj);
      input.push(...asInputItems(req.input));
      const res = responseOf(lastValue);
      out.push({
        line: l.record.line,
        size: l.record.size,
        ...(chain.some((c) => c.record.bigIntegers) ? { bigIntegers: true } : {}),
        value: {
          ...lastValue,
          request: {
            ...req,
            input,
            instructions: req.instructions ?? first.instructions,
            tools: req.tools ?? first.tools,
            previous_response_id: undefined,
          },
          ...(res ? { response: res } : {}),
          chain: chain.map((c) => c.id ?? null),
        },
      });
    }
    return out;
  }
}
