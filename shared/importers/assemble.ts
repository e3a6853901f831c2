// Turn a conversation (ConvItem[]) into a native trace: one Turn per user turn, calls with unique ids,
// every result paired to its call (by id, position, or name and order), the frozen answer = the last
// assistant text of the turn. Returns a problem in words instead of throwing.
import { canonicalJson } from '../trace/canonical';
import type { Pairing, Step, ToolDef, Trace, Turn } from '../trace/schema';
import { validateTrace } from '../trace/validate';
import type { ConvItem, NCall, NResult, TraceDraft } from './conversation';
import { contentHash } from './hash';
import { malformedToolName } from './tools';
import { idOf, quote } from './values';

interface TurnBuild {
  request: string;
  steps: Step[];
}

export type AssembleResult = { ok: true; trace: Trace } | { ok: false; message: string };

export function assembleTrace(draft: TraceDraft): AssembleResult {
  const a = new Assembler();
  try {
    for (let i = 0; i < draft.items.length; i++) a.add(draft.items[i]!);
  } catch (e) {
    if (e instanceof PairingProblem) return { ok: false, message: e.message };
    throw e;
  }
  if (a.turns.length === 0) return { ok: false, message: 'no user request or assistant message found; nothing to import' };

  const turns: Turn[] = a.turns.map((t, i) => finishTurn(t, draft.turnExtras?.[i]));
  if (draft.outcome !== undefined) turns[turns.length - 1]!.correct = draft.outcome;
  if (draft.pending) {
    // Not answered yet: whatever came before (a call of an earlier step) is not this turn's answer.
    const last = turns[turns.length - 1]!;
    delete last.target;
    last.answer = '';
  }
  const recordedMenu = draft.tools && draft.tools.length > 0;
  // A called name no API accepts (a chat-template token in it) is a serving artefact, not a tool: flagged, never on an inferred menu.
  const malformed = a.calledTools.filter((name) => malformedToolName(name));
  const tools: ToolDef[] = recordedMenu ? dedupeTools(draft.tools!) : a.calledTools.filter((n) => !malformedToolName(n)).map((name) => ({ name }));
  const meta: Record<string, unknown> = { format: draft.format, ...draft.meta };
  if (!recordedMenu && tools.length > 0) meta.menu = 'inferred from calls (the source does not record the tools offered)';
  if (malformed.length > 0) meta.malformedToolNames = malformed;

  const body: Record<string, unknown> = { v: 1, tools, turns, meta };
  if (draft.task) body.task = draft.task;
  const system = [draft.system, a.system].filter((x) => x).join('\n\n');
  if (system) body.system = system;
  if (draft.model) body.model = draft.model;
  const id = idOf(draft.id) ?? `${draft.idPrefix}-${contentHash(canonicalJson(body)).slice(0, 24)}`;
  const checked = validateTrace({ ...body, id }, '', 0);
  if (!checked.ok) return { ok: false, message: checked.error.message };
  return { ok: true, trace: checked.value };
}

/** Internal control flow of the assembler: always caught in assembleTrace and returned as { ok: false }, never thrown out. */
class PairingProblem extends Error {}

class Assembler {
  turns: TurnBuild[] = [];
  calledTools: string[] = [];
  private calledSet = new Set<string>();
  private systemParts: string[] = [];
  private bySourceId = new Map<string, string>();
  private used = new Set<string>();
  private names = new Map<string, string>();
  /** Open calls of the current turn, in the order they were made (a Set keeps insertion order, O(1) removal). */
  private pending = new Set<string>();
  /** The same open calls by tool name, for name-and-order pairing without scanning. */
  private pendingByName = new Map<string, Set<string>>();

  get system(): string | undefined {
    return this.systemParts.length ? this.systemParts.join('\n\n') : undefined;
  }

  add(item: ConvItem): void {
    switch (item.role) {
      case 'system':
        if (this.turns.length === 0) this.systemParts.push(item.text);
        else this.current().steps.push({ kind: 'message', role: 'system', content: item.text });
        return;
      case 'user':
        if (item.results && item.results.length > 0) {
          this.pair(item.results);
          if (item.text) this.current().steps.push({ kind: 'message', role: 'user', content: item.text });
          return;
        }
        if (this.turns.length > 0 && this.current().steps.length === 0) {
          this.current().steps.push({ kind: 'message', role: 'user', content: item.text });
          return;
        }
        this.turns.push({ request: item.text, steps: [] });
        this.pending.clear();
        this.pendingByName.clear();
        return;
      case 'assistant': {
        const turn = this.current();
        if (item.calls.length > 0) {
          const calls = item.calls.map((c, k) => this.register(c, k));
          turn.steps.push(item.text ? { kind: 'call', text: item.text, calls } : { kind: 'call', calls });
        } else {
          turn.steps.push({ kind: 'message', role: 'assistant', content: item.text });
        }
        if (item.results && item.results.length > 0) this.pair(item.results);
        return;
      }
      case 'tool':
        this.pair(item.results);
        return;
    }
  }

  private current(): TurnBuild {
    if (this.turns.length === 0) this.turns.push({ request: '', steps: [] });
    return this.turns[this.turns.length - 1]!;
  }

  private register(call: NCall, k: number): { id: string; name: string; arguments?: unknown } {
    const turn = this.turns.length - 1;
    const step = this.current().steps.length;
    const source = idOf(call.id);
    const id = source && !this.used.has(source) ? source : this.unique(source ?? `t${turn}.s${step}.c${k}`);
    this.used.add(id);
    if (source) this.bySourceId.set(source, id);
    this.names.set(id, call.name);
    this.pending.add(id);
    let named = this.pendingByName.get(call.name);
    if (!named) this.pendingByName.set(call.name, (named = new Set()));
    named.add(id);
    if (!this.calledSet.has(call.name)) {
      this.calledSet.add(call.name);
      this.calledTools.push(call.name);
    }
    return call.arguments === undefined ? { id, name: call.name } : { id, name: call.name, arguments: call.arguments };
  }

  private unique(base: string): string {
    if (!this.used.has(base)) return base;
    for (let n = 2; ; n++) if (!this.used.has(`${base}#${n}`)) return `${base}#${n}`;
  }

  private pair(results: NResult[]): void {
    const turn = this.current();
    for (const r of results) {
      const { callId, pairing } = this.resolve(r);
      this.pending.delete(callId);
      this.pendingByName.get(this.names.get(callId)!)?.delete(callId);
      const step: Step = { kind: 'observation', callId, name: this.names.get(callId)!, content: r.content, pairing };
      if (r.isError !== undefined) step.isError = r.isError;
      turn.steps.push(step);
    }
  }

  private resolve(r: NResult): { callId: string; pairing: Pairing } {
    const where = r.where ? `${r.where}: ` : '';
    const source = idOf(r.callId);
    if (source) {
      const id = this.bySourceId.get(source);
      if (!id)
        throw new PairingProblem(
          `${where}tool result refers to call id ${quote(source)}, which no earlier assistant message in this record made; the record is incomplete (its calls may live in another record)`,
        );
      return { callId: id, pairing: r.pairing ?? 'id' };
    }
    const head = this.pending.values().next().value;
    if (head === undefined) {
      throw new PairingProblem(
        `${where}tool result${r.name ? ` of ${quote(r.name)}` : ''} has no open call to answer (every earlier call of this turn already has its result)`,
      );
    }
    if (r.pairing === 'name-order' || (r.name && this.names.get(head) !== r.name)) {
      if (!r.name) throw new PairingProblem(`${where}tool result has neither a call id nor a tool name, so it cannot be paired`);
      const id = this.pendingByName.get(r.name)?.values().next().value;
      if (!id) {
        const open = [...new Set([...this.pending].slice(0, 20).map((p) => this.names.get(p)!))].join(', ');
        throw new PairingProblem(`${where}tool result names ${quote(r.name)}, but the open calls are to ${open}`);
      }
      return { callId: id, pairing: 'name-order' };
    }
    return { callId: head, pairing: 'position' };
  }
}

/**
 * The frozen target is the turn's last assistant message (paper B.2): a final text becomes `answer`; a
 * turn whose last assistant message is a call keeps that call step as its target (`target: 'call'`),
 * unless the format records the final answer elsewhere (GTA's prediction).
 */
function finishTurn(t: TurnBuild, extra: { gold?: string; answer?: string; correct?: boolean } | undefined): Turn {
  const steps = t.steps.filter((s, i) => !(s.kind === 'message' && s.role === 'assistant' && s.content === '' && i < t.steps.length - 1));
  let answer = '';
  let callTarget = false;
  const last = steps[steps.length - 1];
  if (last && last.kind === 'message' && last.role === 'assistant') {
    steps.pop();
    answer = last.content;
  } else if (extra?.answer !== undefined) answer = extra.answer;
  else callTarget = endsInCall(steps);
  const turn: Turn = { request: t.request, steps, answer, ...(callTarget ? { target: 'call' as const } : {}) };
  if (extra?.gold !== undefined) turn.gold = extra.gold;
  if (extra?.correct !== undefined) turn.correct = extra.correct;
  return turn;
}

/** Whether the last assistant message among `steps` is a call step (only tool output or user/system text after it). */
function endsInCall(steps: readonly Step[]): boolean {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (s.kind === 'call') return true;
    if (s.kind === 'message' && s.role === 'assistant') return false;
  }
  return false;
}

/** The first definition of a name wins: a menu lists each tool once. */
function dedupeTools(tools: ToolDef[]): ToolDef[] {
  const seen = new Set<string>();
  return tools.filter((t) => (seen.has(t.name) ? false : (seen.add(t.name), true)));
}
