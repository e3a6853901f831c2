// BFCL v3/v4 multi-turn result files: `inference_log` holds one dict per user turn
// (`begin_of_turn_query`, `step_0`, `step_1`, …). Tool outputs carry no id or name: the k-th `tool`
// entry of a step answers the k-th decoded call of that step (positional pairing).
import type { ToolDef } from '../trace/schema';
import type { ConvItem, NCall, NResult } from './conversation';
import { failed, fromDraft } from './record-outcome';
import { parsePythonCall, splitPythonCallList } from './python-literal';
import { segmentAfter } from './source-path';
import { pickTask } from './task';
import { toolDef } from './tools';
import type { BfclJoin, ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { argumentsOf, arr, asText, contentText, isObj, quote, str, typeName, type Obj } from './values';

const ERROR_PREFIX = 'Error during execution:';

export const bfclFormat: RecordFormat = {
  id: 'bfcl',
  kind: 'record',
  label: 'BFCL v3/v4 multi-turn result file',
  recognize(value) {
    if (!isObj(value)) return null;
    if (Array.isArray(value.inference_log))
      return { score: 15, reason: 'records have "inference_log" (BFCL result entries with begin_of_turn_query / step_N)' };
    const id = str(value.id) ?? '';
    const bfclId = /^(multi_turn|web_search|memory)_/.test(id);
    if (bfclId && (Array.isArray(value.involved_classes) || value.initial_config !== undefined))
      return { score: 12, reason: 'records are BFCL dataset entries (involved_classes / initial_config)' };
    if (bfclId && Array.isArray(value.ground_truth)) return { score: 12, reason: 'records are BFCL possible-answer entries (ground_truth)' };
    if (bfclId && value.result !== undefined) return { score: 10, reason: 'records are BFCL result entries (id multi_turn_… with "result")' };
    return null;
  },
  parseRecord: parseBfclRecord,
};

export function parseBfclRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  const v = record.value;
  if (!isObj(v)) return failed(record, options, `expected a JSON object (a BFCL result entry), got ${typeName(v)}`);
  const id = str(v.id);
  if (!Array.isArray(v.inference_log)) {
    if (typeof v.result === 'string' && v.result.startsWith('Error during inference')) {
      return failed(record, options, `BFCL entry ${quote(id ?? '?')} has no trace: the harness recorded ${quote(v.result, 100)}`);
    }
    if (Array.isArray(v.involved_classes) || Array.isArray(v.question)) {
      return failed(
        record,
        options,
        `BFCL entry ${quote(id ?? '?')} is a dataset entry (no model outputs); import the result file (result/<model>/…_result.json) and give this file as the dataset to recover the menu`,
      );
    }
    if (Array.isArray(v.ground_truth))
      return failed(record, options, `BFCL entry ${quote(id ?? '?')} is a possible-answer entry (no model outputs); import the result file instead`);
    return failed(record, options, 'inference_log: missing; only BFCL multi-turn result entries carry a trace (single-turn categories do not)');
  }
  const joined = id ? options.bfcl?.dataset?.get(id) : undefined;
  const items: ConvItem[] = [];
  const stateClasses: string[] = [];
  let turnIndex = 0;
  for (let e = 0; e < v.inference_log.length; e++) {
    const entry: unknown = v.inference_log[e];
    if (Array.isArray(entry)) {
      for (const s of entry) {
        const c = isObj(s) && s.role === 'state_info' ? str(s.class_name) : undefined;
        if (c && !stateClasses.includes(c)) stateClasses.push(c);
      }
      continue;
    }
    if (!isObj(entry) || !('begin_of_turn_query' in entry)) continue;
    const problem = addTurn(entry, turnIndex, `inference_log[${e}]`, items);
    if (problem) return failed(record, options, problem);
    turnIndex++;
  }
  if (turnIndex === 0) return failed(record, options, 'inference_log: no turn (no entry with begin_of_turn_query)');
  const involved = arr(joined?.involved_classes).filter((c): c is string => typeof c === 'string');
  return fromDraft(
    {
      id,
      idPrefix: 'bfcl',
      format: 'bfcl',
      task: pickTask([v, joined], options.taskField, primaryClass(involved.length ? involved : stateClasses, id)),
      tools: menuOf(involved, joined?.excluded_function, options.bfcl),
      model: str(v.model_name) ?? segmentAfter(options.sourcePath, 'result'),
      items,
    },
    record,
    options,
  );
}

/**
 * The classes BFCL builds its multi-turn categories around, in the order of its id blocks (ids 0–49,
 * 50–99, 100–149, 150–199 of each category). Every record involves exactly one of them, alongside
 * helpers (TwitterAPI, MessageAPI, TicketAPI, MathAPI), and the paper groups records by it.
 */
export const BFCL_PRIMARY_CLASSES = ['GorillaFileSystem', 'VehicleControlAPI', 'TradingBot', 'TravelAPI'] as const;

/** The record's primary API class: the one primary class it involves; else its id block; else the first class. */
export function primaryClass(classes: readonly string[], id: string | undefined): string | undefined {
  const primary = classes.find((c) => (BFCL_PRIMARY_CLASSES as readonly string[]).includes(c));
  if (primary) return primary;
  const n = /^multi_turn_[a-z_]+_(\d+)$/.exec(id ?? '')?.[1];
  if (n !== undefined && classes.length === 0 && Number(n) < 200) return BFCL_PRIMARY_CLASSES[Math.floor(Number(n) / 50)];
  return classes[0];
}

function addTurn(entry: Obj, t: number, where: string, items: ConvItem[]): string | undefined {
  const query = arr(entry.begin_of_turn_query);
  const userTexts: string[] = [];
  for (const m of query) {
    if (!isObj(m)) continue;
    if (m.role === 'system' && t === 0) items.push({ role: 'system', text: contentText(m.content) });
    else userTexts.push(contentText(m.content));
  }
  items.push({ role: 'user', text: userTexts.join('\n\n') });
  const stepKeys = Object.keys(entry)
    .filter((k) => /^step_\d+$/.test(k))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  const before = items.length;
  for (const key of stepKeys) {
    const problem = addStep(arr(entry[key]), t, Number(key.slice(5)), `${where}.${key}`, items);
    if (problem) return problem;
  }
  // A turn of nothing but an empty step stays a turn of its own (with nothing to score), not part of the next.
  if (items.length === before) items.push({ role: 'assistant', text: '', calls: [] });
  return undefined;
}

function addStep(entries: unknown[], t: number, s: number, where: string, items: ConvItem[]): string | undefined {
  let assistant: unknown;
  let decoded: unknown[] | undefined;
  let decodeFailed = false;
  const tools: Array<{ content: unknown; at: string }> = [];
  for (let i = 0; i < entries.length; i++) {
    const x = entries[i];
    if (!isObj(x)) continue;
    if (x.role === 'assistant') assistant = x.content;
    else if (x.role === 'handler_log') {
      if (Array.isArray(x.model_response_decoded)) decoded = x.model_response_decoded;
      if (x.error !== undefined) decodeFailed = true;
    } else if (x.role === 'tool') tools.push({ content: x.content, at: `${where}[${i}]` });
  }
  if (assistant === undefined) return tools.length ? `${where}: tool output without an assistant entry in the step` : undefined;
  // A step the handler could not decode ("Proceed to next turn") still holds the model's call attempt when it
  // logged FC calls ([{name: args}]): it stays a call (never answer text), flagged when its name is garbled.
  const fcCalls = Array.isArray(assistant) && assistant.length > 0 && assistant.every((c) => isObj(c) && Object.keys(c).length === 1);
  const calls = decodeFailed && !fcCalls ? [] : callsOf(assistant, decodeFailed ? undefined : decoded, tools.length > 0, t, s);
  if (typeof calls === 'string') return `${where}: ${calls}`;
  if (calls.length === 0) {
    if (tools.length) return `${where}: ${tools.length} tool output(s) but no decoded call to pair them with`;
    const text = answerText(assistant);
    // An empty closing step ("Empty response from the model. Proceed to next turn.") is how the harness
    // ends a turn, not the model's last message: the turn's target stays its last non-empty assistant
    // message, a call included (paper B.2).
    if (text.trim() === '') return undefined;
    items.push({ role: 'assistant', text, calls: [] });
    return undefined;
  }
  if (tools.length > calls.length)
    return `${where}: ${tools.length} tool outputs for ${calls.length} decoded call(s); outputs pair with calls by position, so the step cannot be paired`;
  items.push({ role: 'assistant', text: '', calls });
  const results: NResult[] = tools.map((x, k) => {
    const content = typeof x.content === 'string' ? x.content : asText(x.content);
    return { callId: calls[k]!.id, content, isError: content.startsWith(ERROR_PREFIX) || undefined, pairing: 'position', where: x.at };
  });
  if (results.length) items.push({ role: 'tool', results });
  return undefined;
}

/**
 * Calls of a step: FC handlers log `[{name: argsJson}]`; prompting handlers log text that the handler
 * decoded into `name(k=v)` strings (`model_response_decoded`). Logs without a handler entry are decoded
 * here from the `[f(a=1), g()]` text, but only when the step has tool outputs to show it was executed.
 */
function callsOf(assistant: unknown, decoded: unknown[] | undefined, executed: boolean, t: number, s: number): NCall[] | string {
  const calls: Array<{ name: string; arguments: unknown }> = [];
  if (Array.isArray(assistant) && assistant.length > 0 && assistant.every((c) => isObj(c) && Object.keys(c).length === 1)) {
    for (const c of assistant as Obj[]) {
      const name = Object.keys(c)[0]!;
      calls.push({ name, arguments: argumentsOf(c[name]) });
    }
  } else if (decoded && decoded.length > 0) {
    for (const d of decoded) {
      if (typeof d !== 'string') return `model_response_decoded holds a ${typeName(d)}, expected call strings like "ls(a=True)"`;
      const parsed = parsePythonCall(d);
      const name = parsed?.name ?? /^\s*([A-Za-z_][\w.]*)\s*\(/.exec(d)?.[1];
      if (!name) return `model_response_decoded entry ${quote(d)} is not a call`;
      calls.push({ name, arguments: parsed ? parsed.arguments : d });
    }
  } else if (decoded === undefined && executed && typeof assistant === 'string') {
    for (const d of splitPythonCallList(assistant) ?? []) {
      const parsed = parsePythonCall(d);
      if (!parsed) return `cannot decode the call ${quote(d)} from the assistant text`;
      calls.push(parsed);
    }
  }
  // Ids are synthesised here (not by the assembler) so the k-th output pairs with exactly the k-th call.
  return calls.map((c, k) => ({ id: `t${t}.s${s}.c${k}`, name: c.name, arguments: c.arguments }));
}

function answerText(assistant: unknown): string {
  if (typeof assistant === 'string') return assistant;
  if (Array.isArray(assistant) && assistant.every((x) => typeof x === 'string')) return assistant.join('\n');
  return contentText(assistant);
}

function menuOf(classes: string[], excluded: unknown, join: BfclJoin | undefined): ToolDef[] | undefined {
  const docs = join?.functionDocs;
  if (!docs || classes.length === 0) return undefined;
  const skip = new Set(arr(excluded).filter((x): x is string => typeof x === 'string'));
  const out: ToolDef[] = [];
  for (const cls of classes) {
    for (const doc of docs.get(cls) ?? []) {
      if (!isObj(doc) || skip.has(String(doc.name))) continue;
      const def = toolDef(doc.name, doc.description, bfclSchema(doc.parameters, 0));
      if (def) out.push(def);
    }
  }
  return out;
}

/** BFCL's own parameter types (dict, float, tuple, any) → JSON Schema, as its FC handlers convert them. */
const BFCL_TYPES: Record<string, string | null> = { dict: 'object', float: 'number', tuple: 'array', any: null };

export function bfclSchema(v: unknown, depth: number): unknown {
  if (depth > 50) return undefined;
  if (Array.isArray(v)) return v.map((x) => bfclSchema(x, depth + 1));
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'type' && typeof x === 'string' && x in BFCL_TYPES) {
      const mapped = BFCL_TYPES[x];
      if (mapped) out[k] = mapped;
      continue;
    }
    out[k] = bfclSchema(x, depth + 1);
  }
  return out;
}

/** Where BFCL keeps each class's function docs (`bfcl_eval/data/multi_turn_func_doc/<file>`), as its constants map them. */
export const BFCL_FUNC_DOC_FILES: Readonly<Record<string, string>> = {
  GorillaFileSystem: 'gorilla_file_system.json',
  MathAPI: 'math_api.json',
  MessageAPI: 'message_api.json',
  TwitterAPI: 'posting_api.json',
  TicketAPI: 'ticket_api.json',
  TradingBot: 'trading_bot.json',
  TravelAPI: 'travel_booking.json',
  VehicleControlAPI: 'vehicle_control.json',
  WebSearchAPI: 'web_search.json',
  MemoryAPI_kv: 'memory_kv.json',
  MemoryAPI_vector: 'memory_vector.json',
  MemoryAPI_rec_sum: 'memory_rec_sum.json',
};
