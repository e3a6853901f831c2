// A request's menu cut to a task's space in the three states, in the API's own form (api.ts): pinned tools
// as the client sent them (byte for byte), deferred tools in the chosen form (the API's native deferral
// plus its tool search tool, or the paper's documentation demotion: name and short description, no
// schema), hidden tools removed. A tool the request lacks is never added; a tool without a name (a built-in
// tool) is kept as it is. The body is edited at the byte level (json-splice.ts): every member the cut does
// not change reaches the upstream as the client sent it. Pure.
import { anyToolDef } from '../../../../shared/importers/tools';
import { isObj, type Obj } from '../../../../shared/importers/values';
import { TASK_METADATA_FIELD } from '../../../../shared/gateway/chat-request';
import { editBody } from '../../../../shared/gateway/json-splice';
import type { DeferredForm, GatewayApi, RequestTool } from './api';

/** A request's `tools` as the cut reads them: the entries `isFunction` accepts are function tools of a space
 * (named by their definition); every other entry (a built-in tool) is kept as it is. */
export function functionTools(body: Obj, isFunction: (tool: Obj) => boolean): RequestTool[] {
  return (Array.isArray(body.tools) ? body.tools : []).map((t) => {
    if (!isObj(t) || !isFunction(t)) return {};
    const def = anyToolDef(t);
    return def ? { name: def.name, def } : {};
  });
}

export interface SpaceStates {
  pinned: readonly string[];
  deferred: readonly string[];
}

/** What the cut reads of an adapter. */
export type MenuApi = Pick<GatewayApi, 'tools' | 'deferredTool' | 'forcedTool' | 'withTools'> & Partial<Pick<GatewayApi, 'searchTool'>>;

export interface ApiCut {
  /** The body to forward, parsed. */
  body: Obj;
  /** Its bytes. */
  bytes: Uint8Array;
  requested: string[];
  pinned: string[];
  deferred: string[];
  hidden: string[];
  /** Characters of JSON the cut took off the menu (hidden tools whole, deferred ones' schemas). */
  savedChars: number;
}

const encoder = new TextEncoder();

export function cutRequest(api: MenuApi, raw: Uint8Array, body: Obj, states: SpaceStates | undefined, form: DeferredForm): ApiCut {
  const tools = api.tools(body);
  const requested = tools.map((t) => t.name).filter((n): n is string => n !== undefined);
  const out: Obj = { ...body };
  const drop = new Set<string>();
  const hasTaskField = isObj(body.metadata) && TASK_METADATA_FIELD in body.metadata;
  if (hasTaskField) {
    const meta: Obj = { ...(body.metadata as Obj) };
    delete meta[TASK_METADATA_FIELD];
    if (Object.keys(meta).length === 0) delete out.metadata;
    else out.metadata = meta;
  }
  if (states === undefined || tools.length === 0) {
    const bytes = hasTaskField ? editBody(raw, { drop, dropMetadataKey: TASK_METADATA_FIELD }) : raw;
    return { body: out, bytes, requested, pinned: requested, deferred: [], hidden: [], savedChars: 0 };
  }
  const pinnedSet = new Set(states.pinned);
  const deferredSet = new Set(form === 'hide' ? [] : states.deferred);
  const list = body.tools as unknown[];
  const keptValues: unknown[] = [];
  const edits = new Map<number, Uint8Array | null>();
  const pinned: string[] = [];
  const deferred: string[] = [];
  const hidden: string[] = [];
  let savedChars = 0;
  tools.forEach((t, i) => {
    const name = t.name;
    if (name === undefined || pinnedSet.has(name)) {
      keptValues.push(list[i]);
      if (name !== undefined) pinned.push(name);
    } else if (deferredSet.has(name) && t.def) {
      const entry = api.deferredTool(t.def, form === 'native' ? 'native' : 'demote');
      keptValues.push(entry);
      edits.set(i, encoder.encode(JSON.stringify(entry)));
      deferred.push(name);
      savedChars += Math.max(0, JSON.stringify(list[i]).length - JSON.stringify(entry).length);
    } else {
      edits.set(i, null);
      hidden.push(name);
      savedChars += JSON.stringify(list[i]).length;
    }
  });
  const append = form === 'native' && deferred.length > 0 && api.searchTool !== undefined ? api.searchTool : undefined;
  if (append !== undefined) keptValues.push(append);
  const forced = api.forcedTool(body);
  if (forced !== undefined && !pinnedSet.has(forced) && !deferred.includes(forced)) {
    delete out.tool_choice;
    drop.add('tool_choice');
  }
  if (keptValues.length > 0) out.tools = keptValues;
  else
    for (const key of ['tools', ...api.withTools]) {
      if (key in out) drop.add(key);
      delete out[key];
    }
  const changed = edits.size > 0 || append !== undefined || drop.size > 0 || hasTaskField;
  const bytes = changed
    ? editBody(raw, {
        drop,
        ...(edits.size > 0 || append !== undefined
          ? { editTools: { edit: (i) => edits.get(i), ...(append !== undefined ? { append: encoder.encode(JSON.stringify(append)) } : {}) } }
          : {}),
        ...(hasTaskField ? { dropMetadataKey: TASK_METADATA_FIELD } : {}),
      })
    : raw;
  return { body: out, bytes, requested, pinned, deferred, hidden, savedChars };
}
