// The pure parts of serving BFCL v4 multi-turn records (issue 42, items 1–3): the menus a record is served
// under (the whole record, a space's top K documented in full with the rest demoted to name and first
// sentence, or the top K alone), reading the calls out of what the model generated in its own tool-call
// format, and the per-arm accuracy with its paired comparison against keep-all.
import type { ToolDef } from '../trace/schema';
import { demotedTool } from '../trace/demote';
import { pairedComparison, type PairedComparison } from './paired';

/** How a space shapes a record's menu: `demote` documents the space's functions in full and the rest of
 * the record's functions by name and first sentence (every function stays callable: the paper's
 * documentation demotion, Appendix B.1); `prune` offers the space's functions only. */
export type BfclMenuForm = 'demote' | 'prune';

export interface BfclArmMenu {
  /** The tools as the model sees them: pinned in full first, then deferred demoted (no parameters). */
  tools: ToolDef[];
  pinned: string[];
  deferred: string[];
  /** Functions of the record the model is not offered (pruned): a call to one is refused. */
  hidden: string[];
}

/** A record's menu under a space (the functions documented in full); `space` 'all' is keep-all. */
export function bfclArmMenu(recordTools: readonly ToolDef[], space: readonly string[] | 'all', form: BfclMenuForm): BfclArmMenu {
  if (space === 'all') return { tools: [...recordTools], pinned: recordTools.map((t) => t.name), deferred: [], hidden: [] };
  const inSpace = new Set(space);
  const pinned = recordTools.filter((t) => inSpace.has(t.name));
  const rest = recordTools.filter((t) => !inSpace.has(t.name));
  if (form === 'prune') return { tools: pinned, pinned: pinned.map((t) => t.name), deferred: [], hidden: rest.map((t) => t.name) };
  return {
    tools: [...pinned, ...rest.map((t): ToolDef => demotedTool(withoutClassPreamble(t)))],
    pinned: pinned.map((t) => t.name),
    deferred: rest.map((t) => t.name),
    hidden: [],
  };
}

/** BFCL's function docs open with their class's preamble ("This tool belongs to the trading system, which
 * allows users to … Tool description: Withdraw funds …"): the demoted line is the function's own sentence. */
export function withoutClassPreamble(tool: ToolDef): ToolDef {
  const m = /^This tool belongs to [\s\S]*?Tool description:\s*/.exec(tool.description ?? '');
  return m ? { ...tool, description: tool.description!.slice(m[0].length) } : tool;
}

/** The text around one call in a chat wrapper's tool-call format (node-llama-cpp's `settings.functions`),
 * as plain strings: prefix, name, paramsPrefix, the parameters as JSON, suffix. */
export interface CallSyntax {
  prefix: string;
  paramsPrefix: string;
  suffix: string;
}

export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ParsedResponse {
  /** Text before the first call (or the whole text when there is no call). */
  text: string;
  calls: ParsedCall[];
  /** The calls were read leniently: JSON objects `{"name", "arguments"}` outside the format's markers. */
  lenient?: boolean;
  /** Set when the text opens a call that could not be read (the model's answer is then its text, as the
   * official harness treats an undecodable response). */
  undecodable?: string;
}

/**
 * The calls of a generated response. A format whose call is a JSON object (Qwen/Hermes
 * `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`) is read as one: whitespace inside the
 * object is free, as json.loads reads it in the official Qwen handler. Other formats are read as the
 * wrapper writes them: prefix, name, paramsPrefix, a JSON value, suffix.
 */
export function parseToolCalls(generated: string, syntax: CallSyntax, options: { lenient?: boolean } = {}): ParsedResponse {
  const json = jsonCallMarkers(syntax);
  const opener = json ? json.open : syntax.prefix.trimEnd();
  const first = opener ? generated.indexOf(opener) : -1;
  if (first < 0) return (options.lenient && bareJsonCalls(generated)) || { text: generated, calls: [] };
  const text = generated.slice(0, first).trimEnd();
  const calls: ParsedCall[] = [];
  let at = first;
  while (at >= 0 && at < generated.length) {
    const read = json ? readJsonCall(generated, at, json) : readNamedCall(generated, at, syntax);
    if ('error' in read) return { text: generated, calls: [], undecodable: read.error };
    calls.push(read.call);
    const next = generated.indexOf(opener, read.end);
    if (next < 0) break;
    at = next;
  }
  return { text, calls };
}

/**
 * Lenient reading (not the official decoding): calls written as JSON objects `{"name": …, "arguments": {…}}`
 * without the format's markers — bare or in a Markdown code fence, as small coder models often answer.
 * Null when the text holds none.
 */
export function bareJsonCalls(generated: string): ParsedResponse | null {
  const calls: ParsedCall[] = [];
  let firstAt = -1;
  for (let i = generated.indexOf('{'); i >= 0 && i < generated.length;) {
    const end = jsonValueEnd(generated, i);
    if (end < 0) break;
    let value: unknown;
    try {
      value = JSON.parse(generated.slice(i, end));
    } catch {
      value = undefined;
    }
    const obj = value as Record<string, unknown> | undefined;
    const args = obj?.arguments ?? obj?.parameters;
    if (obj && typeof obj.name === 'string' && obj.name && typeof args === 'object' && args !== null && !Array.isArray(args)) {
      if (firstAt < 0) firstAt = i;
      calls.push({ name: obj.name, arguments: args as Record<string, unknown> });
      i = generated.indexOf('{', end);
    } else i = generated.indexOf('{', i + 1);
  }
  if (!calls.length) return null;
  const text = generated
    .slice(0, firstAt)
    .replace(/```\w*\s*$/, '')
    .trimEnd();
  return { text, calls, lenient: true };
}

interface JsonMarkers {
  open: string;
  close: string;
  nameKey: string;
  argsKey: string;
}

/** `<tool_call>\n{"name": "` + `", "arguments": ` + `}\n</tool_call>` → the markers around a JSON object. */
function jsonCallMarkers(syntax: CallSyntax): JsonMarkers | null {
  const p = /^([\s\S]*?)\{\s*"(\w+)"\s*:\s*"$/.exec(syntax.prefix);
  const a = /^"\s*,\s*"(\w+)"\s*:\s*$/.exec(syntax.paramsPrefix);
  const s = /^\s*\}([\s\S]*)$/.exec(syntax.suffix);
  if (!p || !a || !s) return null;
  return { open: p[1]!.trim(), close: s[1]!.trim(), nameKey: p[2]!, argsKey: a[1]! };
}

type Read = { call: ParsedCall; end: number } | { error: string };

function readJsonCall(text: string, at: number, m: JsonMarkers): Read {
  const start = text.indexOf('{', at + m.open.length);
  if (start < 0) return { error: `no JSON object after ${m.open}` };
  const end = jsonValueEnd(text, start);
  if (end < 0) return { error: `the call's JSON object is not closed` };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch (e) {
    return { error: `the call is not JSON: ${(e as Error).message}` };
  }
  const obj = value as Record<string, unknown>;
  const name = obj?.[m.nameKey];
  const args = obj?.[m.argsKey] ?? {};
  if (typeof name !== 'string' || !name) return { error: `the call has no "${m.nameKey}"` };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { error: `the call's "${m.argsKey}" is not an object` };
  const close = m.close ? text.indexOf(m.close, end) : end;
  return { call: { name, arguments: args as Record<string, unknown> }, end: close < 0 ? end : close + m.close.length };
}

function readNamedCall(text: string, at: number, syntax: CallSyntax): Read {
  const nameStart = at + syntax.prefix.length;
  const paramsAt = text.indexOf(syntax.paramsPrefix, nameStart);
  if (paramsAt < 0) return { error: 'no parameters after the function name' };
  const name = text.slice(nameStart, paramsAt).trim();
  const valueStart = paramsAt + syntax.paramsPrefix.length;
  const end = jsonValueEnd(text, valueStart);
  if (end < 0) return { error: 'the parameters are not a closed JSON value' };
  let args: unknown;
  try {
    args = JSON.parse(text.slice(valueStart, end));
  } catch (e) {
    return { error: `the parameters are not JSON: ${(e as Error).message}` };
  }
  if (!/^[A-Za-z_][\w.]*$/.test(name)) return { error: `not a function name: ${JSON.stringify(name.slice(0, 40))}` };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { error: 'the parameters are not an object' };
  const suffix = syntax.suffix.trim();
  const close = suffix ? text.indexOf(suffix, end) : end;
  return { call: { name, arguments: args as Record<string, unknown> }, end: close < 0 ? end : close + suffix.length };
}

/** The index just past the JSON object or array that starts at `start` (skipping leading spaces), or -1. */
export function jsonValueEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const open = text[i];
  if (open !== '{' && open !== '[') return -1;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** One served record's outcome under one arm. */
export interface BfclRecordOutcome {
  arm: string;
  id: string;
  cls: string;
  /** The official checker's verdict. */
  valid: boolean;
  error?: string;
  /** The record's turns, and how many leading turns the official checker accepts (the checker run on each
   * prefix of the turns): partial credit where whole-record accuracy is 0 for a small model. */
  turns?: number;
  turnsPassed?: number;
  /** Prompt tokens of the record's first request (the menu's cost) and over every request. */
  firstPromptTokens: number;
  promptTokens: number;
  generatedTokens: number;
  steps: number;
  calls: number;
  /** Calls to a deferred function (callable, not documented in full) and refused calls to a hidden one. */
  deferredCalls: number;
  hiddenCalls: number;
  undecodable: number;
  /** Responses whose calls were read leniently (JSON outside the format's markers). */
  lenient: number;
  /** Turns cut at the step limit. */
  stepLimited: number;
  seconds: number;
}

/** A record's outcome before it is served: nothing counted, not valid. */
export function emptyOutcome(arm: string, id: string, cls: string): BfclRecordOutcome {
  const zero = { firstPromptTokens: 0, promptTokens: 0, generatedTokens: 0, steps: 0, calls: 0, deferredCalls: 0, hiddenCalls: 0 };
  return { arm, id, cls, valid: false, ...zero, undecodable: 0, lenient: 0, stepLimited: 0, seconds: 0 };
}

export interface BfclArmSummary {
  arm: string;
  records: number;
  correct: number;
  accuracy: number;
  meanFirstPromptTokens: number;
  /** Mean share of a record's turns the checker accepts before the first failing one (records that have it). */
  turnShare?: number;
  perClass: { cls: string; records: number; correct: number }[];
  /** Against the reference arm (keep-all), over the records both served; absent for the reference itself. */
  paired?: PairedComparison;
  /** The same for the share of turns passed. */
  pairedTurns?: PairedComparison;
}

const turnShareOf = (o: BfclRecordOutcome): number | undefined => (o.turns && o.turnsPassed !== undefined ? o.turnsPassed / o.turns : undefined);

function meanTurnShare(outcomes: readonly BfclRecordOutcome[]): { turnShare?: number } {
  const shares = outcomes.map(turnShareOf).filter((x): x is number => x !== undefined);
  return shares.length ? { turnShare: shares.reduce((a, b) => a + b, 0) / shares.length } : {};
}

/** Accuracy per arm and class, and each arm's paired difference against `reference` on shared records. */
export function summarizeArms(outcomes: readonly BfclRecordOutcome[], reference: string): BfclArmSummary[] {
  const arms = [...new Set(outcomes.map((o) => o.arm))];
  const ref = new Map(outcomes.filter((o) => o.arm === reference).map((o) => [o.id, o]));
  return arms.map((arm) => {
    const mine = outcomes.filter((o) => o.arm === arm);
    const classes = [...new Set(mine.map((o) => o.cls))];
    const correct = mine.filter((o) => o.valid).length;
    const summary: BfclArmSummary = {
      arm,
      records: mine.length,
      correct,
      accuracy: mine.length ? correct / mine.length : 0,
      meanFirstPromptTokens: mine.length ? mine.reduce((s, o) => s + o.firstPromptTokens, 0) / mine.length : 0,
      ...meanTurnShare(mine),
      perClass: classes.map((cls) => {
        const c = mine.filter((o) => o.cls === cls);
        return { cls, records: c.length, correct: c.filter((o) => o.valid).length };
      }),
    };
    if (arm !== reference) {
      // Stratified by primary class, as the benchmark's families are.
      const pairs = mine.filter((o) => ref.has(o.id)).map((o) => ({ stratum: o.cls, a: o.valid ? 1 : 0, b: ref.get(o.id)!.valid ? 1 : 0 }));
      if (pairs.length) summary.paired = pairedComparison(pairs);
      const turnPairs = mine.flatMap((o) => {
        const a = turnShareOf(o);
        const b = ref.has(o.id) ? turnShareOf(ref.get(o.id)!) : undefined;
        return a !== undefined && b !== undefined ? [{ stratum: o.cls, a, b }] : [];
      });
      if (turnPairs.length) summary.pairedTurns = pairedComparison(turnPairs);
    }
    return summary;
  });
}
