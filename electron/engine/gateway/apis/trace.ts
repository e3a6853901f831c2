// An exchange of an adapter's API as a trace, read by the API's own importer (the OpenAI importer's
// Responses reading, the Anthropic importer): the trace of live traffic is the one `lots import` makes of
// the same logged request and response. The menu is the one the upstream was shown; what the client
// asked for and what the space did with it are kept in `meta.gateway`. Pure.
import { parseAnthropicRecord } from '../../../../shared/importers/anthropic';
import { parseOpenAIRecord } from '../../../../shared/importers/openai';
import type { Obj } from '../../../../shared/importers/values';
import type { Trace } from '../../../../shared/trace/schema';
import type { TaskSource } from '../../../../shared/gateway/stats';
import type { GatewayApi } from './api';

export interface ApiExchange {
  id: string;
  api: GatewayApi;
  task?: string;
  taskSource: TaskSource;
  /** The body forwarded upstream (a previous_response_id chain merged into one request). */
  forwarded: Obj;
  answer: Obj;
  requested: string[];
  pinned: string[];
  deferred: string[];
  hidden: string[];
  /** The deferred form the menu was sent in. */
  deferredForm: string;
  /** Deferred tools the answers of the chain called (callable, not loaded up front). */
  calledWhileDeferred: string[];
  spaceVersion?: number;
  usage?: Obj;
  requests: number;
  session: string;
  at: string;
}

export type TraceOrError = { ok: true; trace: Trace } | { ok: false; message: string };

export function apiExchangeTrace(e: ApiExchange): TraceOrError {
  const { value, parse } = e.api.record(e.id, e.forwarded, e.answer);
  const record = { value, line: 1 };
  const out = parse === 'anthropic' ? parseAnthropicRecord(record, {}) : parseOpenAIRecord(record, {});
  const parsed = out.traces[0]?.trace;
  if (!parsed) return { ok: false, message: out.errors.map((x) => x.message).join('; ') || 'the exchange made no trace' };
  return {
    ok: true,
    trace: {
      ...parsed,
      ...(e.task !== undefined ? { task: e.task } : {}),
      meta: {
        ...parsed.meta,
        gateway: {
          kind: e.api.recordedKind ?? e.api.id,
          session: e.session,
          at: e.at,
          taskFrom: e.taskSource,
          requests: e.requests,
          requestedTools: e.requested.length,
          hidden: e.hidden,
          deferred: e.deferred,
          deferredForm: e.deferredForm,
          calledWhileDeferred: e.calledWhileDeferred,
          ...(e.spaceVersion !== undefined ? { spaceVersion: e.spaceVersion } : {}),
          ...(e.usage ? { usage: e.usage } : {}),
        },
      },
    },
  };
}
