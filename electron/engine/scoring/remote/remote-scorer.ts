// Score traces on one or more scoring servers (data parallel). Every endpoint runs `concurrency`
// workers (default: its slots) that take the next trace from one shared queue, so faster endpoints
// take more (the sharding balances itself) and the number of requests in flight is bounded — the
// back-pressure. A trace stays on one worker from start to end: its full context and then each
// intervention, in the plan's order (descending shared prefix), so the server's prefix cache keeps
// what consecutive sequences share. An endpoint that fails (no answer after its retries) is dropped
// and its trace goes back on the queue for the others; when none is left the job fails, and what was
// scored so far is stored (a rerun resumes). The plan, the scored-token location and L and I are the
// local scorer's (plan.ts, span.ts, trace-scores.ts): only where the log-probs come from differs.
// A trace's result is handed over only after the endpoint was asked again what it serves (guard); once
// the batch fails (a protocol error, another model), the requests in flight are aborted and nothing more
// of the batch is handed over. Workers are never more than the traces of the batch.
import type { Trace } from '../../../../shared/trace/schema';
import { planTrace, type PlanOptions, type TracePlan } from '../plan';
import type { TraceRenderer } from '../chat-template';
import type { TraceResult } from '../scorer';
import { addStats, emptyStats, type EvaluationStats } from '../sequence-runner';
import type { TurnLogprobs } from '../trace-scores';
import type { ScoringSequence } from '../span';
import type { PromptScoringClient } from './client';
import { MAX_SLOTS } from './slots';
import type { ServedModelGuard } from './model-guard';

import type { ServerTokenizer } from './server-tokenizer';
import { ExpectedError } from '../../../../shared/api/errors';

export interface RemoteEndpoint {
  client: PromptScoringClient;
  /** Requests in flight on this endpoint (workers). */
  concurrency: number;
}

export interface RemoteScoreOptions extends PlanOptions {
  shouldStop?: () => boolean;
  /** An endpoint was dropped; its work moves to the others. */
  onEndpointFailed?: (endpoint: string, error: Error) => void;
  plan?: (trace: Trace) => Promise<TracePlan>;
  /** Holds the endpoints to the job's served model: asked after retried requests, before each trace is
   * handed over, and at the end of the batch. */
  guard?: ServedModelGuard;
}

export interface RemoteTraceResult extends TraceResult {
  endpoint: string;
}

export interface RemoteScoreSummary {
  scored: number;
  stopped: boolean;
  stats: EvaluationStats;
  /** Traces scored per endpoint. */
  perEndpoint: Record<string, number>;
  failedEndpoints: string[];
}

/** Errors that say the endpoint, not the trace, is the problem: its work can go elsewhere. */
export function endpointFailure(e: unknown): e is ExpectedError | TypeError {
  if (e instanceof ExpectedError) return e.code === 'SERVER_UNAVAILABLE';
  return e instanceof TypeError; // fetch's "fetch failed" on a refused connection
}

export async function scoreTracesRemote(
  endpoints: readonly RemoteEndpoint[],
  renderer: TraceRenderer,
  tokenizer: ServerTokenizer,
  traces: readonly Trace[],
  options: RemoteScoreOptions,
  onTrace: (result: RemoteTraceResult) => void | Promise<void>,
): Promise<RemoteScoreSummary> {
  const queue = [...traces].reverse(); // pop() takes them in order; a returned trace is pushed back first
  const stats = emptyStats();
  const perEndpoint: Record<string, number> = Object.fromEntries(endpoints.map((e) => [e.client.endpoint, 0]));
  const failed = new Set<string>();
  const reasons = new Map<string, string>();
  const dropEndpoint = (name: string, error: ExpectedError | TypeError): void => {
    if (failed.has(name)) return;
    failed.add(name);
    reasons.set(name, error.message);
    options.onEndpointFailed?.(name, error);
  };
  let stopped = false;
  let scored = 0;
  let failure: { error: unknown } | undefined;
  const plan = options.plan ?? ((t: Trace) => planWithServerTokens(t, renderer, tokenizer, options));

  // Once the batch fails, the requests in flight are aborted: their results would not be stored.
  const abort = new AbortController();
  const fail = (error: unknown): void => {
    if (failure) return;
    failure = { error };
    abort.abort(error);
  };

  const worker = async (endpoint: RemoteEndpoint): Promise<void> => {
    const name = endpoint.client.endpoint;
    while (!failure && !failed.has(name)) {
      if (options.shouldStop?.()) {
        stopped = true;
        return;
      }
      const trace = queue.pop();
      if (!trace) return;
      const started = performance.now();
      let result: { plan: TracePlan; logprobs: TurnLogprobs[]; stats: EvaluationStats };
      try {
        const p = await plan(trace);
        result = { plan: p, ...(await evaluateRemote(p, endpoint.client, abort.signal, options.guard)) };
        await options.guard?.verify(endpoint.client, `before storing trace "${trace.id}"`);
      } catch (e) {
        if (failure) return; // aborted with the batch, or failed after it: nothing more is stored
        if (endpointFailure(e)) {
          queue.push(trace);
          dropEndpoint(name, e);
          return;
        }
        fail(e);
        return;
      }
      if (failure) return;
      scored++;
      perEndpoint[name]!++;
      addStats(stats, result.stats);
      await onTrace({ ...result, endpoint: name, seconds: (performance.now() - started) / 1000 });
    }
  };

  for (const e of endpoints) {
    if (!Number.isInteger(e.concurrency) || e.concurrency < 1 || e.concurrency > MAX_SLOTS)
      throw new ExpectedError(
        'INVALID_INPUT',
        `${e.client.endpoint}: ${e.concurrency} requests in flight asked for (--concurrency); it must be a whole number from 1 to ${MAX_SLOTS}`,
      );
  }
  const perWorker = (e: RemoteEndpoint): number => Math.min(e.concurrency, Math.max(1, traces.length));
  await Promise.all(endpoints.flatMap((e) => Array.from({ length: perWorker(e) }, () => worker(e))));
  if (failure) throw failure.error;
  if (!stopped && queue.length > 0) {
    throw new ExpectedError(
      'NO_ENDPOINT_LEFT',
      `every scoring endpoint failed (${[...failed].map((n) => `${n}: ${reasons.get(n) ?? '?'}`).join('; ')}); ${queue.length} traces are left unscored. The scores so far are stored: run the same command again when a server answers.`,
    );
  }
  // The end of the batch: every endpoint that worked on it still serves the job's model.
  if (options.guard) {
    for (const e of endpoints) {
      const name = e.client.endpoint;
      if (failed.has(name) || perEndpoint[name] === 0) continue;
      try {
        await options.guard.verify(e.client, 'at the end of a batch');
      } catch (error) {
        if (!endpointFailure(error)) throw error;
        dropEndpoint(name, error);
      }
    }
  }
  return { scored, stopped, stats, perEndpoint, failedEndpoints: [...failed] };
}

/**
 * planTrace with the server's token ids: a pass collects every text the renderer tokenizes, the
 * server tokenizes them, and the pass is repeated until nothing is missing (normally twice). Passes
 * of concurrent traces take turns (`tokenizer.exclusive`): a pass must see only its own misses.
 */
export async function planWithServerTokens(trace: Trace, renderer: TraceRenderer, tokenizer: ServerTokenizer, options: PlanOptions): Promise<TracePlan> {
  for (let pass = 0; pass < 5; pass++) {
    const { plan, missing } = await tokenizer.exclusive(async () => {
      tokenizer.takeMissing();
      const p = await planTrace(trace, renderer, options);
      return { plan: p, missing: tokenizer.takeMissing() };
    });
    if (missing.length === 0) return plan;
    await tokenizer.resolve(missing);
  }
  throw new Error(`trace "${trace.id}": rendering kept asking the server tokenizer for new texts`);
}

async function evaluateRemote(
  plan: TracePlan,
  client: PromptScoringClient,
  signal: AbortSignal,
  guard: ServedModelGuard | undefined,
): Promise<{ logprobs: TurnLogprobs[]; stats: EvaluationStats }> {
  const stats = emptyStats();
  const out: TurnLogprobs[] = [];
  const run = async (s: ScoringSequence, label: string): Promise<number[]> => {
    if (s.start < 1) throw new Error(`${label}: a scored token needs a context before it`);
    const values = await client.scoredLogprobs(s.tokens, s.start, s.end, signal);
    await guard?.afterRequest(client);
    stats.tokensEvaluated += s.end - 1;
    stats.probabilityPositions += values.length;
    return values;
  };
  for (const turn of plan.turns) {
    const label = `trace "${plan.trace.id}" turn ${turn.turn}`;
    const base = await run(turn.base, label);
    const removed = new Map<string, number[]>();
    for (const iv of turn.interventions) removed.set(iv.tool, await run(iv.sequence, `${label} without ${iv.tool}`));
    out.push({ turn: turn.turn, base, removed });
  }
  return { logprobs: out, stats };
}
