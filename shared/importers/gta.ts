// GTA (open-compass/GTA): dataset entries (`dialogs`, `tools`, `gt_answer`) and harness outputs
// (`origin_prompt`, `prediction`, `steps`, `gold`). No call ids: a `tool` message answers the call just
// before it (positional pairing); errors sit on the call step (`error: {type, msg}`).
import type { ToolDef } from '../trace/schema';
import type { ConvItem, NCall, TraceDraft, TurnExtra } from './conversation';
import { failed, fromDraft } from './record-outcome';
import { segmentAfter } from './source-path';
import { pickTask } from './task';
import { toolDef } from './tools';
import type { ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { argumentsOf, arr, asText, contentText, isObj, quote, str, typeName, type Obj } from './values';
import { setOwn } from '../trace/own-record';

export const gtaFormat: RecordFormat = {
  id: 'gta',
  kind: 'record',
  label: 'GTA dataset / harness output',
  recognize(value) {
    if (!isObj(value)) return null;
    if (Array.isArray(value.dialogs) && (value.tools !== undefined || value.gt_answer !== undefined || value.files !== undefined)) {
      return { score: 14, reason: 'entries have "dialogs" with "tools" / "gt_answer" (the GTA dataset)' };
    }
    if (Array.isArray(value.steps) && value.origin_prompt !== undefined && value.prediction !== undefined) {
      return { score: 14, reason: 'entries have "origin_prompt", "prediction" and "steps" (GTA / OpenCompass agent harness output)' };
    }
    return null;
  },
  parseRecord: parseGtaRecord,
};

export function parseGtaRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  const v = record.value;
  if (!isObj(v)) return failed(record, options, `expected a JSON object (a GTA entry), got ${typeName(v)}`);
  const draft = Array.isArray(v.dialogs)
    ? datasetDraft(v, record, options)
    : Array.isArray(v.steps)
      ? harnessDraft(v, record, options)
      : 'not a GTA entry: expected "dialogs" (dataset) or "steps" with "origin_prompt" (harness output)';
  return fromDraft(draft, record, options);
}

function base(v: Obj, record: SourceRecord, options: ImportOptions): Pick<TraceDraft, 'id' | 'idPrefix' | 'format' | 'task' | 'model'> {
  const key = record.key ?? str(v.id) ?? (typeof v.idx === 'number' ? String(v.idx) : undefined);
  const model = str(v.model) ?? segmentAfter(options.sourcePath, 'predictions');
  return {
    id: key !== undefined ? `gta-${model ? `${model}-` : ''}${key}` : undefined,
    idPrefix: 'gta',
    format: 'gta',
    model,
    task: pickTask([v], options.taskField, v.type ?? v.task_type ?? v.category),
  };
}

function datasetDraft(v: Obj, record: SourceRecord, options: ImportOptions): TraceDraft | string {
  const items = dialogItems(arr(v.dialogs), 'dialogs');
  if (typeof items === 'string') return items;
  const files = arr(v.files)
    .map((f) => (isObj(f) ? str(f.path) : undefined))
    .filter((p): p is string => !!p);
  const turnExtras: TurnExtra[] = [];
  const gold = goldText(v.gt_answer);
  const userTurns = items.filter((i) => i.role === 'user').length;
  if (gold !== undefined && userTurns > 0) turnExtras[userTurns - 1] = { gold };
  return {
    ...base(v, record, options),
    system: files.length ? `The related files are at ${files.map((p) => `\`${p}\``).join(', ')}` : undefined,
    tools: gtaTools(v.tools),
    items,
    turnExtras,
  };
}

/** Harness output: one round (`origin_prompt` a string) or several (`every` mode: parallel lists). */
function harnessDraft(v: Obj, record: SourceRecord, options: ImportOptions): TraceDraft | string {
  const multi = Array.isArray(v.origin_prompt);
  const prompts = multi ? arr(v.origin_prompt) : [v.origin_prompt];
  const stepLists = multi ? arr(v.steps) : [v.steps];
  const predictions = multi ? arr(v.prediction) : [v.prediction];
  const golds = multi ? arr(v.gold) : [v.gold];
  const items: ConvItem[] = [];
  const turnExtras: TurnExtra[] = [];
  for (let r = 0; r < prompts.length; r++) {
    items.push({ role: 'user', text: contentText(prompts[r]) });
    const steps = stepLists[r];
    if (!Array.isArray(steps)) return `steps${multi ? `[${r}]` : ''}: expected an array of steps, got ${typeName(steps)}`;
    const got = dialogItems(steps, multi ? `steps[${r}]` : 'steps');
    if (typeof got === 'string') return got;
    items.push(...got.filter((i) => i.role !== 'user'));
    turnExtras.push({ answer: typeof predictions[r] === 'string' ? (predictions[r] as string) : undefined, gold: goldText(golds[r]) });
  }
  return { ...base(v, record, options), items, turnExtras };
}

function dialogItems(dialogs: unknown[], path: string): ConvItem[] | string {
  const items: ConvItem[] = [];
  let lastError: string | undefined;
  for (let i = 0; i < dialogs.length; i++) {
    const m = dialogs[i];
    const where = `${path}[${i}]`;
    if (!isObj(m)) return `${where}: expected a message object, got ${typeName(m)}`;
    const role = str(m.role);
    if (role === 'user') items.push({ role: 'user', text: contentText(m.content) });
    else if (role === 'system') items.push({ role: 'system', text: contentText(m.content) });
    else if (role === 'assistant') {
      const calls: NCall[] = [];
      for (const [k, tc] of arr(m.tool_calls).entries()) {
        const fn = isObj(tc) && isObj(tc.function) ? tc.function : undefined;
        const name = str(fn?.name)?.trim();
        if (!name) return `${where}.tool_calls[${k}].function.name: missing tool name`;
        calls.push({ name, arguments: argumentsOf(fn!.arguments) });
      }
      lastError = isObj(m.error) ? [str(m.error.type), str(m.error.msg)].filter((x) => x).join(': ') || 'error' : undefined;
      // Lagent marks thoughts with meta.type "thought"; they are text, not the answer, unless they end the turn.
      items.push({ role: 'assistant', text: calls.length ? (str(m.thought) ?? contentText(m.content)) : contentText(m.content), calls });
    } else if (role === 'tool') {
      const content = m.content === null || m.content === undefined ? (lastError ?? '') : toolContent(m.content);
      items.push({ role: 'tool', results: [{ name: str(m.name), content, isError: lastError !== undefined || undefined, pairing: 'position', where }] });
      lastError = undefined;
    } else return `${where}.role: ${role === undefined ? 'missing' : `unknown role ${quote(role)}`} (expected user, assistant, tool or system)`;
  }
  return items;
}

/** `{type:"text", content:…}` or a list of them (AgentLego results). */
function toolContent(c: unknown): string {
  if (Array.isArray(c)) return c.map(toolContent).join('\n');
  if (isObj(c) && 'content' in c) return typeof c.content === 'string' ? c.content : asText(c.content);
  return contentText(c);
}

function goldText(g: unknown): string | undefined {
  if (g === undefined || g === null) return undefined;
  return typeof g === 'string' ? g : asText(g);
}

/** AgentLego ToolMeta → ToolDef: inputs become a JSON Schema object. */
function gtaTools(list: unknown): ToolDef[] {
  const out: ToolDef[] = [];
  for (const t of arr(list)) {
    if (!isObj(t)) continue;
    const properties: Obj = {};
    const required: string[] = [];
    for (const input of arr(t.inputs)) {
      if (!isObj(input)) continue;
      const name = str(input.name);
      if (!name) continue;
      const prop: Obj = { type: jsonType(str(input.type)) };
      if (typeof input.description === 'string') prop.description = input.description;
      if (input.default !== undefined && input.default !== null) prop.default = input.default;
      setOwn<unknown>(properties, name, prop);
      if (input.optional !== true) required.push(name);
    }
    const def = toolDef(t.name, t.description, Array.isArray(t.inputs) ? { type: 'object', properties, required } : undefined);
    if (def) out.push(def);
  }
  return out;
}

function jsonType(t: string | undefined): string {
  switch (t) {
    case 'int':
      return 'integer';
    case 'float':
      return 'number';
    case 'bool':
      return 'boolean';
    default:
      return 'string';
  }
}
