// tau-bench and tau2-bench trajectories: an agent talking with a simulated user, its messages in
// OpenAI chat form (`traj`, tau-bench) or tau2's own (`messages`, tool calls with dict arguments). The
// `reward` is the benchmark's verdict on the whole conversation: 1 → correct, anything else → wrong,
// recorded on the last turn (the outcome of the conversation). The simulated user's closing `###STOP###`
// message is not a request. tau2 result files hold many `simulations` in one document: one trace each.
import type { TraceDraft } from './conversation';
import { chatMessagesToItems } from './openai-chat';
import { fromDraft, failed } from './record-outcome';
import { pickTask } from './task';
import type { ImportOptions, ParsedTrace, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { arr, asText, idOf, isObj, quote, str, type Obj } from './values';
import type { LineError } from '../trace/validate';

const DOMAIN = /(airline|retail|telecom|mock|banking)/i;

export const tauFormat: RecordFormat = {
  id: 'tau',
  kind: 'record',
  label: 'tau-bench / tau2-bench trajectories',
  recognize(value) {
    if (!isObj(value)) return null;
    if (Array.isArray(value.traj) && 'reward' in value && 'task_id' in value)
      return { score: 16, reason: 'records have "traj" (chat messages), "reward" and "task_id" (tau-bench trajectories)' };
    if (Array.isArray(value.simulations) && arr(value.simulations).some((s) => isObj(s) && Array.isArray(s.messages) && 'task_id' in s))
      return { score: 16, reason: 'the document has "simulations" with messages and task_id (tau2-bench results)' };
    return null;
  },
  parseRecord(record, options) {
    const v = record.value;
    if (!isObj(v)) return failed(record, options, 'expected a tau-bench trajectory or a tau2-bench results object');
    if (Array.isArray(v.simulations)) return parseSimulations(v, record, options);
    return fromDraft(tauDraft(v, options), record, options);
  },
};

function domainOf(options: ImportOptions, v: Obj): string | undefined {
  const fromInfo = isObj(v.info) && isObj(v.info.environment_info) ? str(v.info.environment_info.domain_name) : undefined;
  return fromInfo ?? DOMAIN.exec(options.sourcePath ?? options.file ?? '')?.[1]?.toLowerCase();
}

/** The reward as a verdict: 1 (or true) correct, a number below 1 wrong, absent unlabelled. */
function verdict(reward: unknown): boolean | undefined {
  if (typeof reward === 'boolean') return reward;
  if (typeof reward === 'number' && Number.isFinite(reward)) return reward >= 1;
  return undefined;
}

/** The tokens the simulated user ends a conversation with (tau-bench's STOP; tau2 adds TRANSFER and OUT-OF-SCOPE). */
const END_TOKENS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'];

/**
 * Drop the simulated user's closing message (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`, with
 * nothing after it): it ends the run, it asks nothing, and the reward belongs to the turn before it.
 */
function withoutStop(messages: unknown[]): { messages: unknown[]; stopped: boolean; endToken?: string } {
  const last = messages[messages.length - 1];
  if (isObj(last) && last.role === 'user' && typeof last.content === 'string') {
    const token = END_TOKENS.find((t) => (last.content as string).includes(t));
    if (token) return { messages: messages.slice(0, -1), stopped: true, endToken: token };
  }
  return { messages, stopped: false };
}

/**
 * tau2's agent opens every conversation with a fixed greeting before the user says anything; as a turn
 * it would be a "request" of no text answered by the greeting. It is kept in the trace's meta instead.
 */
function withoutOpening(messages: unknown[]): { messages: unknown[]; opening?: string } {
  let i = 0;
  const texts: string[] = [];
  for (; i < messages.length; i++) {
    const m = messages[i];
    if (!isObj(m) || m.role !== 'assistant' || arr(m.tool_calls).length > 0 || typeof m.content !== 'string') break;
    texts.push(m.content);
  }
  return i === 0 ? { messages } : { messages: messages.slice(i), opening: texts.join('\n') };
}

function tauDraft(v: Obj, options: ImportOptions): TraceDraft | string {
  const { messages, stopped, endToken } = withoutStop(arr(v.traj));
  const conv = chatMessagesToItems(messages, 'traj');
  if (!conv.ok) return conv.message;
  const domain = domainOf(options, v);
  const taskId = idOf(v.task_id);
  const trial = idOf(v.trial);
  return {
    id: taskId !== undefined ? `tau-${domain ?? 'task'}-${taskId}${trial !== undefined ? `-trial${trial}` : ''}` : undefined,
    idPrefix: 'tau',
    format: 'tau-bench',
    task: pickTask([v], options.taskField, domain),
    items: conv.items,
    outcome: verdict(v.reward),
    meta: { taskId: taskId ?? null, reward: v.reward ?? null, ...(stopped ? { userStopped: true, userEndToken: endToken } : {}) },
  };
}

/** tau2's messages → OpenAI chat messages (tool calls carry dict arguments and their own id). */
function tau2Messages(messages: unknown[], where: string): unknown[] | string {
  const out: unknown[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObj(m)) return `${where}[${i}]: expected a message object`;
    const calls = arr(m.tool_calls);
    if (m.role === 'user' && calls.length > 0)
      return `${where}[${i}].tool_calls: the simulated user calls tools here (tau2 telecom); a user's tool calls are not the agent's evidence and have no place in this trace model, so the simulation is refused`;
    if (m.role === 'tool' && m.requestor === 'user') return `${where}[${i}]: a tool result for the simulated user (tau2 telecom); refused with its simulation`;
    if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.content ?? '',
        ...(calls.length
          ? { tool_calls: calls.map((c) => (isObj(c) ? { id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } } : c)) }
          : {}),
      });
    } else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.id, content: typeof m.content === 'string' ? m.content : asText(m.content) });
    else out.push({ role: m.role, content: m.content ?? '' });
  }
  return out;
}

function parseSimulations(doc: Obj, record: SourceRecord, options: ImportOptions): RecordOutcome {
  const traces: ParsedTrace[] = [];
  const errors: LineError[] = [];
  const domain = isObj(doc.info) && isObj(doc.info.environment_info) ? str(doc.info.environment_info.domain_name) : undefined;
  const sims = arr(doc.simulations);
  for (let s = 0; s < sims.length; s++) {
    const sim = sims[s];
    const where = `simulations[${s}]`;
    if (!isObj(sim)) {
      errors.push({ file: options.file ?? '', line: record.line, message: `${where}: expected a simulation object` });
      continue;
    }
    const ended = withoutStop(arr(sim.messages));
    const { messages, opening } = withoutOpening(ended.messages);
    const converted = tau2Messages(messages, `${where}.messages`);
    const conv = typeof converted === 'string' ? ({ ok: false, message: converted } as const) : chatMessagesToItems(converted, `${where}.messages`);
    if (!conv.ok) {
      errors.push({ file: options.file ?? '', line: record.line, message: conv.message });
      continue;
    }
    const taskId = idOf(sim.task_id);
    const trial = idOf(sim.trial);
    const dom = domain ?? DOMAIN.exec(options.sourcePath ?? options.file ?? '')?.[1]?.toLowerCase();
    const reward = isObj(sim.reward_info) ? sim.reward_info.reward : undefined;
    const outcome = fromDraft(
      {
        id: idOf(sim.id) ?? (taskId !== undefined ? `tau2-${dom ?? 'task'}-${taskId}${trial !== undefined ? `-trial${trial}` : ''}` : undefined),
        idPrefix: 'tau2',
        format: 'tau2-bench',
        task: pickTask([sim], options.taskField, dom),
        items: conv.items,
        outcome: verdict(reward),
        meta: {
          taskId: taskId ?? null,
          reward: reward ?? null,
          ...(ended.stopped ? { userStopped: true, userEndToken: ended.endToken } : {}),
          ...(opening !== undefined ? { agentOpening: opening } : {}),
        },
      },
      record,
      options,
    );
    traces.push(...outcome.traces);
    for (const e of outcome.errors) errors.push({ ...e, message: `${where} (task ${quote(taskId ?? '?')}): ${e.message}` });
  }
  return { traces, errors };
}
