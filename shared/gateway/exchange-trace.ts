// A gateway exchange as a native trace, read by the OpenAI importer itself (parseOpenAIRecord): the trace
// of live traffic is exactly the one `lots import` makes of the same logged request and response, so
// scoring and `lots update` treat both alike. The menu is the one the upstream was shown (cut to the
// space); what the client asked for is kept in `meta.gateway`.
import { parseOpenAIRecord } from '../importers/openai';
import type { Obj } from '../importers/values';
import type { Trace } from '../trace/schema';
import type { TaskSource } from './stats';

export interface Exchange {
  /** The trace id (a continued exchange keeps the first one of its chain). */
  id: string;
  task?: string;
  taskSource: TaskSource;
  /** The body forwarded upstream (its `messages`, its menu as cut). */
  forwarded: Obj;
  /** The assistant message of the answer (assembled from the stream when it was streamed). */
  answer: Obj;
  /** The tools the client's request listed. */
  requested: string[];
  hidden: string[];
  /** Tools sent deferred (demoted), and the deferred ones the chain's answers called. */
  deferred?: string[];
  calledWhileDeferred?: string[];
  /** Whether the task had an approved space (and which version cut the menu). */
  spaceVersion?: number;
  usage?: Obj;
  /** Requests of the chain so far (1 for one not continued). */
  requests: number;
  session: string;
  at: string;
  /** `openai` for the Chat Completions gateway. */
  gateway: string;
}

export type TraceOrError = { ok: true; trace: Trace } | { ok: false; message: string };

export function exchangeTrace(e: Exchange): TraceOrError {
  const record = {
    id: e.id,
    request: { model: e.forwarded.model, messages: e.forwarded.messages, tools: e.forwarded.tools ?? [] },
    response: { choices: [{ message: e.answer }] },
  };
  const out = parseOpenAIRecord({ value: record, line: 1 }, {});
  const parsed = out.traces[0]?.trace;
  if (!parsed) return { ok: false, message: out.errors.map((x) => x.message).join('; ') || 'the exchange made no trace' };
  const trace: Trace = {
    ...parsed,
    ...(e.task !== undefined ? { task: e.task } : {}),
    meta: {
      ...parsed.meta,
      gateway: {
        kind: e.gateway,
        session: e.session,
        at: e.at,
        taskFrom: e.taskSource,
        requests: e.requests,
        requestedTools: e.requested.length,
        hidden: e.hidden,
        ...(e.deferred !== undefined ? { deferred: e.deferred } : {}),
        ...(e.calledWhileDeferred !== undefined ? { calledWhileDeferred: e.calledWhileDeferred } : {}),
        ...(e.spaceVersion !== undefined ? { spaceVersion: e.spaceVersion } : {}),
        ...(e.usage ? { usage: e.usage } : {}),
      },
    },
  };
  return { ok: true, trace };
}
