// A llama.cpp server (`llama-server`) as a scoring backend. It has no prompt log-probs (its
// OpenAI-style completions refuse `echo`), but its native /completion can teacher-force: a grammar of
// token ids (`root ::= <[id]> <[id]> …`) admits exactly the frozen answer tokens, and with
// `n_probs` > 0 and `post_sampling_probs` off each generated token comes back with its log-prob under
// the raw logits (a softmax over the whole vocabulary, before any sampler or the grammar touches
// them) — log p(answer token | context, earlier answer tokens), what the local scorer reads.
// Prompts go as token ids (no BOS is added to an id prompt); `cache_prompt` keeps a slot's KV cache,
// so the interventions of one trace reuse the prefix they share with the full context.
import { createHash } from 'node:crypto';
import { requestJson, type HttpTarget } from './http';

import type { PromptScoringClient, ServedModel, ServerTokens } from './client';
import { MAX_SLOTS } from './slots';
import { ExpectedError } from '../../../../shared/api/errors';

/** Smallest positive float32 (as the local scorer): a probability that underflowed keeps a finite log. */
export const MIN_LOGPROB = Math.log(1.401298464324817e-45);

// What llama-server answers, as far as it is read. Every field is `unknown` until checked: a server (or
// something else listening at the URL) may answer anything, and what it answers becomes stored scores.
interface TokenizeResponse {
  tokens?: unknown;
}

interface CompletionResponse {
  completion_probabilities?: unknown;
  tokens?: unknown;
  stop_type?: unknown;
}

interface ModelsResponse {
  data?: Array<{ id?: unknown; meta?: Record<string, unknown> }>;
}

interface PropsResponse {
  total_slots?: unknown;
  build_info?: unknown;
  default_generation_settings?: { n_ctx?: unknown };
}

export class LlamaServerClient implements PromptScoringClient {
  readonly backend = 'llama-server';

  constructor(private readonly target: HttpTarget) {}

  get endpoint(): string {
    return this.target.baseUrl;
  }

  async servedModel(): Promise<ServedModel> {
    const models = await requestJson<ModelsResponse>(this.target, 'GET', '/v1/models');
    const entry = Array.isArray(models.data) ? models.data[0] : undefined;
    if (typeof entry?.id !== 'string' || entry.id === '') throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/v1/models lists no model`);
    const props = await requestJson<PropsResponse>(this.target, 'GET', '/props');
    // llama-server reports no file hash ("digest" is a dummy); what it does report about the weights
    // (parameter count, size in bytes, file type, vocabulary) is hashed. `created` is the time of the
    // request and is left out.
    const meta = entry.meta ?? {};
    const fingerprint = JSON.stringify({
      id: entry.id,
      meta: Object.fromEntries(
        Object.entries(meta)
          .filter(([k]) => k !== 'n_ctx')
          .sort(),
      ),
    });
    const nCtx = props.default_generation_settings?.n_ctx ?? meta.n_ctx;
    return {
      name: entry.id,
      revision: createHash('sha256').update(fingerprint).digest('hex').slice(0, 16),
      slots: props.total_slots === undefined ? 1 : this.checkSlots(props.total_slots),
      slotsReported: props.total_slots !== undefined,
      ...(typeof nCtx === 'number' && Number.isInteger(nCtx) && nCtx > 0 ? { contextSize: nCtx } : {}),
      ...(typeof props.build_info === 'string' && props.build_info ? { build: props.build_info } : {}),
    };
  }

  /** The slot count becomes the number of requests in flight: only a plain integer in 1..MAX_SLOTS is one. */
  private checkSlots(value: unknown): number {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SLOTS) return value;
    throw new ExpectedError(
      'SERVER_PROTOCOL',
      `${this.endpoint}/props reports total_slots ${describeValue(value)}; a llama-server has a whole number of slots from 1 to ${MAX_SLOTS} (its --parallel). ` +
        'This is not a llama-server answering, or a broken one: check the URL, or restart the server',
    );
  }

  async tokenize(text: string, special: boolean, signal?: AbortSignal): Promise<ServerTokens> {
    if (text === '') return { ids: [], pieces: [] };
    const r = await requestJson<TokenizeResponse>(
      this.target,
      'POST',
      '/tokenize',
      { content: text, add_special: false, parse_special: special, with_pieces: true },
      signal,
    );
    if (!Array.isArray(r.tokens)) throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/tokenize answered without a token list`);
    const ids: number[] = [];
    const pieces: string[] = [];
    for (const [i, t] of (r.tokens as unknown[]).entries()) {
      if (typeof t === 'number') throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/tokenize ignored with_pieces; this llama-server is too old`);
      const { id, piece } = (t ?? {}) as { id?: unknown; piece?: unknown };
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
        throw new ExpectedError(
          'SERVER_PROTOCOL',
          `${this.endpoint}/tokenize gave token ${i} the id ${describeValue(id)}${typeof id === 'string' ? ': the types differ (a token id is a number, not a string)' : ': a token id is a whole number ≥ 0'}; this server does not answer as llama-server does`,
        );
      }
      ids.push(id);
      if (typeof piece === 'string') pieces.push(piece);
      else if (Array.isArray(piece) && piece.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255))
        pieces.push(Buffer.from(piece as number[]).toString('utf8'));
      else
        throw new ExpectedError(
          'SERVER_PROTOCOL',
          `${this.endpoint}/tokenize gave token ${i} (id ${id}) the piece ${describeValue(piece)}: a piece is a string or a list of bytes`,
        );
    }
    return { ids, pieces };
  }

  async scoredLogprobs(tokens: readonly number[], start: number, end: number, signal?: AbortSignal): Promise<number[]> {
    const answer = tokens.slice(start, end);
    const r = await requestJson<CompletionResponse>(
      this.target,
      'POST',
      '/completion',
      {
        prompt: tokens.slice(0, start),
        n_predict: answer.length,
        grammar: `root ::= ${answer.map((id) => `<[${id}]>`).join(' ')}`,
        n_probs: 1,
        post_sampling_probs: false,
        temperature: 0,
        cache_prompt: true,
        return_tokens: true,
        stream: false,
      },
      signal,
    );
    const probs = Array.isArray(r.completion_probabilities) ? (r.completion_probabilities as Array<{ id?: unknown; logprob?: unknown } | null>) : undefined;
    const idOf = (p: { id?: unknown } | null): unknown => p?.id;
    if (!probs || probs.length !== answer.length || probs.some((p, i) => idOf(p) !== answer[i])) {
      const got: unknown[] = probs?.map(idOf) ?? (Array.isArray(r.tokens) ? (r.tokens as unknown[]) : []);
      const list = (ids: readonly unknown[]): string => `${ids.slice(0, 8).map(String).join(',')}${ids.length > 8 ? ',…' : ''}`;
      // Ids that match only as text ("52" for 52): say so, or the two lists below read the same.
      const typed = got.findIndex((id, i) => i < answer.length && typeof id !== 'number' && String(id) === String(answer[i]));
      const types = typed >= 0 ? `; the types differ: token ${typed} came back as ${describeValue(got[typed])}, where a token id is a number` : '';
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/completion did not follow the forced answer tokens (wanted ${answer.length}: ${list(answer)}, got ${got.length}: ${list(got)}${types}; stop: ${typeof r.stop_type === 'string' ? r.stop_type : '?'})`,
      );
    }
    return probs.map((p, i) => {
      const value = p!.logprob;
      // A log-prob is log p with 0 < p ≤ 1: finite and ≤ 0, or −Infinity where p underflowed to 0 (kept
      // finite at the float32 floor, as the local scorer does; llama-server itself writes an underflow as
      // the lowest float, -3.4e38, since its JSON library would turn −Infinity into null). Anything else
      // would be stored as a plausible score: null, a string, +Infinity, a positive value (p above 1).
      if (value === Number.NEGATIVE_INFINITY) return MIN_LOGPROB;
      if (typeof value === 'number' && Number.isFinite(value) && value <= 0) return Math.max(value, MIN_LOGPROB);
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/completion gave the log-prob ${describeValue(value)}${typeof value === 'number' && value > 0 && Number.isFinite(value) ? ' (positive: a probability above 1)' : ''} for answer token ${i} (id ${answer[i]}); a log-prob is a finite number ≤ 0 (or −Infinity). ` +
          'The server is broken or is not a llama-server: nothing is stored for this trace. Check the server, then run the job again',
      );
    });
  }
}

/** A value from a server's JSON, as it is and what is wrong with it, for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  if (value === null) return 'null';
  if (typeof value === 'string') return `${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} (a string)`;
  if (typeof value === 'number') {
    if (value === Number.POSITIVE_INFINITY) return '+Infinity (a number too large for a double)';
    if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
    return String(value);
  }
  const json = JSON.stringify(value) ?? typeof value;
  return `${json.length > 60 ? `${json.slice(0, 60)}…` : json} (${Array.isArray(value) ? 'a list' : typeof value})`;
}
