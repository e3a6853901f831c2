// What the OpenAI gateway reads from a Chat Completions request and how it cuts the request's menu to a
// task's approved space. Pure: the engine's gateway (electron/engine/gateway/openai-gateway.ts) parses
// the body, calls these, and forwards the result. The request is kept as the client sent it except for
// the fields named here: `tools` (cut to the space, in the request's own order; a tool the request
// lacks is never added), `tool_choice` (dropped when it names a hidden tool, which the upstream would
// refuse) and `metadata.lots_task` (ours, not the upstream's).
import { contentText, isObj, str, type Obj } from '../importers/values';

/** The request header that names the task explicitly. */
export const TASK_HEADER = 'x-lots-task';
/** The field of `metadata` that names the task (after the header). */
export const TASK_METADATA_FIELD = 'lots_task';

export interface ChatRequest {
  body: Obj;
  messages: unknown[];
  stream: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Checks the shape the gateway relies on (an object with a `messages` array); the rest is the upstream's business. */
export function parseChatRequest(body: unknown): Parsed<ChatRequest> {
  if (!isObj(body)) return { ok: false, message: `the request body must be a JSON object (a Chat Completions request), got ${jsonKind(body)}` };
  if (!Array.isArray(body.messages)) return { ok: false, message: `"messages" must be an array of chat messages, got ${jsonKind(body.messages)}` };
  if (body.tools !== undefined && !Array.isArray(body.tools)) return { ok: false, message: `"tools" must be an array when given, got ${jsonKind(body.tools)}` };
  return { ok: true, value: { body, messages: body.messages, stream: body.stream === true } };
}

/** How a request body's value is named in an error ("an array", "null", "string"…). */
export function jsonKind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** The task the request names in `metadata.lots_task`, if any. */
export function metadataTask(body: Obj): string | undefined {
  const meta = body.metadata;
  if (!isObj(meta)) return undefined;
  const t = str(meta[TASK_METADATA_FIELD])?.trim();
  return t ? t : undefined;
}

/** The name of a Chat Completions tool (`{type:"function", function:{name}}`, or a bare `{name}`). */
export function toolName(tool: unknown): string | undefined {
  if (!isObj(tool)) return undefined;
  const fn = isObj(tool.function) ? tool.function : tool;
  return str(fn.name)?.trim() || undefined;
}

export function requestToolNames(body: Obj): string[] {
  return Array.isArray(body.tools) ? body.tools.map(toolName).filter((n): n is string => n !== undefined) : [];
}

/** The text a router reads: the user messages, as `requestText` reads a trace's turns. */
export function chatRequestText(messages: readonly unknown[]): string {
  return messages
    .filter((m): m is Obj => isObj(m) && m.role === 'user')
    .map((m) => contentText(m.content))
    .join('\n');
}

export interface CutRequest {
  /** The body to forward. */
  body: Obj;
  /** Names of the tools left on the menu, in the request's order. */
  shown: string[];
  /** Names of the tools the space hid. */
  hidden: string[];
  /** Indexes into the request's `tools` of the tools kept (all of them when nothing was cut). */
  keptIndexes: number[];
  /** The members of the body the cut removed (`tools`, `tool_choice`, `parallel_tool_calls`). */
  dropped: string[];
  /** `metadata.lots_task` was there and is removed. */
  droppedTaskField: boolean;
  /** The characters of JSON the hidden tools took (the prompt tokens saved are estimated from it). */
  hiddenChars: number;
  /** The request's tool_choice named a hidden tool and was dropped. */
  droppedToolChoice: boolean;
}

/**
 * The request with its menu cut to `space` (undefined: no approved space, the menu is left as it is).
 * `metadata.lots_task` is removed either way (and `metadata` itself when that was all it held).
 */
export function cutToSpace(body: Obj, space: readonly string[] | undefined): CutRequest {
  const out: Obj = { ...body };
  const droppedTaskField = isObj(body.metadata) && TASK_METADATA_FIELD in body.metadata;
  if (isObj(body.metadata) && TASK_METADATA_FIELD in body.metadata) {
    const meta: Obj = { ...body.metadata };
    delete meta[TASK_METADATA_FIELD];
    if (Object.keys(meta).length === 0) delete out.metadata;
    else out.metadata = meta;
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (space === undefined || tools.length === 0)
    return {
      body: out,
      shown: requestToolNames(body),
      hidden: [],
      keptIndexes: tools.map((_, i) => i),
      dropped: [],
      droppedTaskField,
      hiddenChars: 0,
      droppedToolChoice: false,
    };
  const allowed = new Set(space);
  const kept: unknown[] = [];
  const keptIndexes: number[] = [];
  const dropped: string[] = [];
  const shown: string[] = [];
  const hidden: string[] = [];
  let hiddenChars = 0;
  for (const [i, t] of tools.entries()) {
    const name = toolName(t);
    // A tool without a name cannot be in a space; the upstream decides what it is (and refuses it).
    if (name === undefined || allowed.has(name)) {
      kept.push(t);
      keptIndexes.push(i);
      if (name !== undefined) shown.push(name);
    } else {
      hidden.push(name);
      hiddenChars += JSON.stringify(t).length;
    }
  }
  let droppedToolChoice = false;
  const choice = body.tool_choice;
  const chosen = isObj(choice) ? toolName(choice) : undefined;
  if (chosen !== undefined && !allowed.has(chosen)) {
    delete out.tool_choice;
    droppedToolChoice = true;
    dropped.push('tool_choice');
  }
  if (kept.length > 0) out.tools = kept;
  else {
    // An empty `tools` array is an error for OpenAI's API: no menu is sent at all.
    for (const key of ['tools', 'tool_choice', 'parallel_tool_calls']) {
      if (key in out && !dropped.includes(key)) dropped.push(key);
      delete out[key];
    }
  }
  return { body: out, shown, hidden, keptIndexes, dropped, droppedTaskField, hiddenChars, droppedToolChoice };
}

/** Prompt tokens a hidden menu would have cost, estimated at four characters of JSON per token. */
export function estimateTokens(chars: number): number {
  return Math.round(chars / 4);
}
