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
import { ExpectedError } from '../../../../shared/api/errors';

/** Smallest positive float32 (as the local scorer): a probability that underflowed keeps a finite log. */
const MIN_LOGPROB = Math.log(1.401298464324817e-45);

interface TokenizeResponse {
  tokens: Array<number | { id: number; piece: string | number[] }>;
}

interface CompletionResponse {
  completion_probabilities?: Array<{ id: number; logprob: number }>;
  tokens?: number[];
  stop_type?: string;
}

interface ModelsResponse {
  data?: Array<{ id?: string; meta?: Record<string, unknown> }>;
}

interface PropsResponse {
  total_slots?: number;
  build_info?: string;
  default_generation_settings?: { n_ctx?: number };
}

export class LlamaServerClient implements PromptScoringClient {
  readonly backend = 'llama-server';

  constructor(private readonly target: HttpTarget) {}

  get endpoint(): string {
    return this.target.baseUrl;
  }

  async servedModel(): Promise<ServedModel> {
    const models = await requestJson<ModelsResponse>(this.target, 'GET', '/v1/models');
    const entry = models.data?.[0];
    if (!entry?.id) throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/v1/models lists no model`);
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
    return {
      name: entry.id,
      revision: createHash('sha256').update(fingerprint).digest('hex').slice(0, 16),
      slots: props.total_slots ?? 1,
      slotsReported: props.total_slots !== undefined,
      contextSize: props.default_generation_settings?.n_ctx ?? (typeof meta.n_ctx === 'number' ? meta.n_ctx : undefined),
      ...(props.build_info ? { build: props.build_info } : {}),
    };
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
    const ids: number[] = [];
    const pieces: string[] = [];
    for (const t of r.tokens) {
      if (typeof t === 'number') throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/tokenize ignored with_pieces; this llama-server is too old`);
      ids.push(t.id);
      pieces.push(typeof t.piece === 'string' ? t.piece : Buffer.from(t.piece).toString('utf8'));
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
    const probs = r.completion_probabilities;
    if (!probs || probs.length !== answer.length || probs.some((p, i) => p.id !== answer[i])) {
      const got = probs?.map((p) => p.id) ?? r.tokens ?? [];
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/completion did not follow the forced answer tokens (wanted ${answer.length}: ${answer.slice(0, 8).join(',')}…, got ${got.length}: ${got.slice(0, 8).join(',')}…; stop: ${r.stop_type ?? '?'})`,
      );
    }
    return probs.map((p) => (Number.isFinite(p.logprob) ? Math.max(p.logprob, MIN_LOGPROB) : MIN_LOGPROB));
  }
}
