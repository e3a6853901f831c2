// OpenAI Responses records chained by `previous_response_id` (or by a Conversations API `conversation`,
// where each request continues the conversation's last response before it): a request that continues an earlier response
// sends only the new input (tool outputs, a new user message); its context is the earlier response's input
// and output. Within one file the chain is stitched: the records are held until the file ends, and each
// chain's last record becomes one trace whose history is the whole chain (the records before it are part
// of that trace, not traces of their own). A record whose predecessor is not in the file is read alone.
// A background response (`background: true`) is answered `queued` and fetched again later
// (`GET /v1/responses/{id}`): a record holding only a response whose id an earlier record of the file
// created is that response's later state, so it replaces the earlier record's response (the last state in
// the file wins) instead of becoming a trace of its own with no request.
import type { SourceRecord } from './types';
import { arr, isObj, str, type Obj } from './values';

interface Link {
  record: SourceRecord;
  id?: string;
  previous?: string;
  /** The Conversations API's `conversation` it belongs to: it continues the conversation's last response before it. */
  conversation?: string;
  /** A response with no request (a retrieval of a background response): it updates the record that created it. */
  poll?: boolean;
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
  if (id && res?.object === 'response' && req.input === undefined && req.messages === undefined && !isObj(v.request)) return { record, id, poll: true };
  if (!previous && !conversation && !(id && req.input !== undefined)) return undefined;
  return { record, id, previous, ...(conversation ? { conversation } : {}) };
}

/** `conversation` as the request gives it (an id or `{id}`) or the response echoes it (`{id}`). */
function conversationId(v: unknown): string | undefined {
  return str(v) ?? (isObj(v) ? str(v.id) : undefined);
}

function isPending(res: Obj | undefined): boolean {
  return res?.status === 'queued' || res?.status === 'in_progress';
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
  /** Records read into another record's trace: later states of a response, earlier responses of a chain. */
  private foldedCount = 0;

  /** Holds a record until the file ends; false for a lone response that continues nothing held (read it now). */
  hold(link: Link): boolean {
    if (link.poll) {
      const created = link.id ? this.byId.get(link.id) : undefined;
      const v = created?.record.value as Obj | undefined;
      const before = v ? responseOf(v) : undefined;
      // Only a response seen unfinished (queued / in_progress) has later states to read.
      if (!created || !v || !(Array.isArray(v.responseStates) || isPending(before))) return false;
      const states: unknown[] = Array.isArray(v.responseStates) ? (v.responseStates as unknown[]) : [str(before?.status) ?? null];
      const after = responseOf(link.record.value as Obj);
      created.record = {
        ...created.record,
        ...(link.record.bigIntegers ? { bigIntegers: true } : {}),
        value: { ...v, response: after, responseStates: [...states, str(after?.status) ?? null] },
      };
      this.foldedCount++;
      return true;
    }
    if (link.conversation) {
      const before = this.lastOfConversation.get(link.conversation);
      if (!link.previous && before?.id) link.previous = before.id;
      if (link.id) this.lastOfConversation.set(link.conversation, link);
    }
    this.links.push(link);
    if (link.id && !this.byId.has(link.id)) this.byId.set(link.id, link);
    return true;
  }

  get size(): number {
    return this.links.length;
  }

  /** After `finish`: how many records were read into another record's trace (not traces of their own). */
  get folded(): number {
    return this.foldedCount;
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
      if (continued.has(l)) {
        this.foldedCount++;
        continue;
      }
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
