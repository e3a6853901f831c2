// vLLM's OpenAI-compatible server as a scoring backend. Unlike llama-server it returns prompt log-probs:
// `/v1/completions` with the token ids as the prompt, `echo`, `prompt_logprobs: 1` and `max_tokens: 0`
// answers, for every prompt position after the first, a dict keyed by token id (as a string) that always
// holds the prompt's own token — log p(prompt[i] | prompt[0..i)) under the raw logits, what the local
// scorer reads. The prompt is the sequence up to the last scored token; the scored positions are read.
// Tokens come from vLLM's `/tokenize` (no special tokens added); its `return_token_strs` gives the
// tokenizer's own strings (byte-level BPE "Ġ"/"Ċ" or SentencePiece "▁"), decoded here to text and
// checked to spell the text sent; without them each new id's text is asked of `/detokenize`.
// One limit vLLM's API imposes: `/tokenize` always parses special-token spellings (an HF tokenizer has no
// per-request switch), so a trace whose own text spells "<|im_start|>" tokenizes as that special token
// here, where llama.cpp reads it as plain text. Nothing the server answers is trusted (as llama-server.ts).
import { createHash } from 'node:crypto';
import { requestJson, type HttpTarget } from './http';
import type { PromptScoringClient, ServedModel, ServerTokens } from './client';
import { describeValue, MIN_LOGPROB } from './llama-server';
import { ExpectedError } from '../../../../shared/api/errors';

interface ModelsResponse {
  data?: Array<{ id?: unknown; root?: unknown; parent?: unknown; max_model_len?: unknown }>;
}

interface TokenizeResponse {
  tokens?: unknown;
  token_strs?: unknown;
}

interface CompletionResponse {
  choices?: Array<{ prompt_logprobs?: unknown; prompt_token_ids?: unknown }>;
}

/** Ids asked of /detokenize at once when the server gives no token strings. */
const DETOKENIZE_PARALLEL = 8;

export class VllmClient implements PromptScoringClient {
  readonly backend = 'vllm';
  /** The served model's name, sent with each completion (learnt from /v1/models). */
  private model: string | undefined;
  /** 0 until a server refuses it; then 1 (an echo request generates one token it does not need). */
  private maxTokens = 0;
  private readonly pieceOf = new Map<number, string>();

  constructor(private readonly target: HttpTarget) {}

  get endpoint(): string {
    return this.target.baseUrl;
  }

  async servedModel(): Promise<ServedModel> {
    const models = await requestJson<ModelsResponse>(this.target, 'GET', '/v1/models');
    const entry = Array.isArray(models.data) ? models.data[0] : undefined;
    if (typeof entry?.id !== 'string' || entry.id === '') throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/v1/models lists no model`);
    // vLLM reports no weight hash: what it reports about the weights is the name, the path or hub id they
    // were loaded from (`root`) and the base model of an adapter (`parent`); `max_model_len` is a serving
    // choice and `created` the time of the request, both left out (as llama-server's n_ctx is).
    const fingerprint = JSON.stringify({ id: entry.id, root: entry.root ?? null, parent: entry.parent ?? null });
    const ctx = entry.max_model_len;
    this.model = entry.id;
    return {
      name: entry.id,
      revision: createHash('sha256').update(fingerprint).digest('hex').slice(0, 16),
      // vLLM batches requests continuously and does not report a limit: one request in flight unless
      // --concurrency says more (a GPU server takes many; a CPU one gains nothing from more).
      slots: 1,
      slotsReported: false,
      ...(typeof ctx === 'number' && Number.isInteger(ctx) && ctx > 0 ? { contextSize: ctx } : {}),
    };
  }

  async tokenize(text: string, _special: boolean, signal?: AbortSignal): Promise<ServerTokens> {
    if (text === '') return { ids: [], pieces: [] };
    const r = await requestJson<TokenizeResponse>(
      this.target,
      'POST',
      '/tokenize',
      { prompt: text, add_special_tokens: false, return_token_strs: true },
      signal,
    );
    if (!Array.isArray(r.tokens)) throw new ExpectedError('SERVER_PROTOCOL', `${this.endpoint}/tokenize answered without a token list`);
    const ids = (r.tokens as unknown[]).map((id, i) => {
      if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return id;
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/tokenize gave token ${i} the id ${describeValue(id)}${typeof id === 'string' ? ': the types differ (a token id is a number, not a string)' : ': a token id is a whole number ≥ 0'}; this server does not answer as vLLM does`,
      );
    });
    if (r.token_strs === undefined || r.token_strs === null) return { ids, pieces: await this.detokenizeEach(ids, signal) };
    const strs = r.token_strs;
    if (!Array.isArray(strs) || strs.length !== ids.length || strs.some((s) => typeof s !== 'string'))
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/tokenize gave ${describeValue(strs)} as the token strings of ${ids.length} tokens: one string per token was expected`,
      );
    const pieces = decodeTokenStrings(strs as string[]);
    const spelled = pieces === undefined ? undefined : Buffer.concat(pieces).toString('utf8');
    if (pieces === undefined || spelled === undefined || !spells(spelled, text))
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${this.endpoint}/tokenize: the token strings (${describeValue(strs)}) do not spell the text sent (${describeValue(text)})${spelled === undefined ? '' : `: they read ${describeValue(spelled)}`}. ` +
          'Only byte-level BPE and SentencePiece vocabularies are read; this server is broken or serves another kind',
      );
    return { ids, pieces: pieces.map((p) => p.toString('utf8')) };
  }

  /** Each id's text from /detokenize (for a server that ignores return_token_strs), cached per id. */
  private async detokenizeEach(ids: readonly number[], signal?: AbortSignal): Promise<string[]> {
    const missing = [...new Set(ids.filter((id) => !this.pieceOf.has(id)))];
    for (let i = 0; i < missing.length; i += DETOKENIZE_PARALLEL) {
      await Promise.all(
        missing.slice(i, i + DETOKENIZE_PARALLEL).map(async (id) => {
          const r = await requestJson<{ prompt?: unknown }>(this.target, 'POST', '/detokenize', { tokens: [id] }, signal);
          if (typeof r.prompt !== 'string')
            throw new ExpectedError(
              'SERVER_PROTOCOL',
              `${this.endpoint}/detokenize gave ${describeValue(r.prompt)} as the text of token ${id}: a string was expected`,
            );
          this.pieceOf.set(id, r.prompt);
        }),
      );
    }
    return ids.map((id) => this.pieceOf.get(id)!);
  }

  async scoredLogprobs(tokens: readonly number[], start: number, end: number, signal?: AbortSignal): Promise<number[]> {
    if (start < 1 || end <= start || end > tokens.length) throw new Error(`scoredLogprobs: positions [${start}, ${end}) of ${tokens.length} tokens`);
    const prompt = tokens.slice(0, end);
    const body = (maxTokens: number): Record<string, unknown> => ({
      ...(this.model !== undefined ? { model: this.model } : {}),
      prompt,
      echo: true,
      max_tokens: maxTokens,
      prompt_logprobs: 1,
      temperature: 0,
      stream: false,
      // The prompt's ids back (to check that the server scored these) and no detokenizing of the prompt.
      return_token_ids: true,
    });
    let r: CompletionResponse;
    try {
      r = await requestJson<CompletionResponse>(this.target, 'POST', '/v1/completions', body(this.maxTokens), signal);
    } catch (e) {
      // A server that wants at least one generated token even with echo: ask again for one (and from now on).
      if (!(e instanceof ExpectedError && e.code === 'SERVER_REJECTED' && this.maxTokens === 0 && /max_tokens/.test(e.message))) throw e;
      this.maxTokens = 1;
      r = await requestJson<CompletionResponse>(this.target, 'POST', '/v1/completions', body(1), signal);
    }
    return this.readPromptLogprobs(r, prompt, start);
  }

  private readPromptLogprobs(r: CompletionResponse, prompt: readonly number[], start: number): number[] {
    const where = `${this.endpoint}/v1/completions`;
    const choice = Array.isArray(r.choices) ? r.choices[0] : undefined;
    if (!choice || typeof choice !== 'object') throw new ExpectedError('SERVER_PROTOCOL', `${where} answered without choices`);
    const echoed = choice.prompt_token_ids;
    if (echoed !== undefined && echoed !== null) {
      const list = Array.isArray(echoed) ? (echoed as unknown[]) : undefined;
      const at = list === undefined ? -1 : list.length !== prompt.length ? Math.min(list.length, prompt.length) : list.findIndex((id, i) => id !== prompt[i]);
      if (list === undefined || at >= 0)
        throw new ExpectedError(
          'SERVER_PROTOCOL',
          `${where} scored other tokens than the ${prompt.length} sent (prompt_token_ids ${list === undefined ? describeValue(echoed) : `differ at ${at}: ${describeValue(list[at])} for ${prompt[at] ?? '(none)'}`})`,
        );
    }
    const entries = choice.prompt_logprobs;
    if (!Array.isArray(entries) || entries.length !== prompt.length)
      throw new ExpectedError(
        'SERVER_PROTOCOL',
        `${where} gave ${Array.isArray(entries) ? `${entries.length} prompt log-prob entries` : `prompt_logprobs ${describeValue(entries)}`} for a prompt of ${prompt.length} tokens: one per prompt token was expected (does the server take prompt_logprobs?)`,
      );
    const out: number[] = [];
    for (let i = start; i < prompt.length; i++) {
      const entry = (entries as unknown[])[i];
      const id = prompt[i]!;
      const own = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>)[String(id)] : undefined;
      if (own === null || typeof own !== 'object')
        throw new ExpectedError(
          'SERVER_PROTOCOL',
          `${where}: the prompt log-probs at position ${i} (${describeValue(entry)}) do not hold the prompt's own token ${id}; vLLM always includes it`,
        );
      const { logprob: value, rank } = own as { logprob?: unknown; rank?: unknown };
      if (rank !== undefined && rank !== null && !(typeof rank === 'number' && Number.isInteger(rank) && rank >= 1))
        throw new ExpectedError('SERVER_PROTOCOL', `${where} gave token ${id} at position ${i} the rank ${describeValue(rank)}: a rank is a whole number ≥ 1`);
      // A log-prob is finite and ≤ 0 (vLLM writes an underflow as −9999; it is kept at the float32 floor,
      // as the local scorer keeps −Infinity). Anything else would be stored as a plausible score.
      if (!(typeof value === 'number' && Number.isFinite(value) && value <= 0))
        throw new ExpectedError(
          'SERVER_PROTOCOL',
          `${where} gave the log-prob ${describeValue(value)}${typeof value === 'number' && value > 0 && Number.isFinite(value) ? ' (positive: a probability above 1)' : ''} for token ${id} at position ${i}; a log-prob is a finite number ≤ 0. ` +
            'The server is broken or is not vLLM: nothing is stored for this trace. Check the server, then run the job again',
        );
      out.push(Math.max(value, MIN_LOGPROB));
    }
    return out;
  }
}

/** Whether the decoded tokens spell the text: exactly, after the NFC normalization some tokenizers apply,
 * or with the one leading space a SentencePiece vocabulary adds. */
function spells(spelled: string, text: string): boolean {
  return [text, text.normalize('NFC'), ` ${text}`, ` ${text.normalize('NFC')}`].includes(spelled);
}

/**
 * The bytes of each token string: byte-level BPE (GPT-2's byte-to-character map: "Ġ" a space, "Ċ" a
 * newline) when every character is in that map's alphabet, else SentencePiece ("▁" a space, "<0x0A>" a
 * byte). Undefined when neither reads them.
 */
export function decodeTokenStrings(strs: readonly string[]): Buffer[] | undefined {
  const byteLevel = strs.every((s) => Array.from(s).every((c) => BYTE_OF.has(c)));
  if (byteLevel) return strs.map((s) => Buffer.from(Array.from(s, (c) => BYTE_OF.get(c)!)));
  return strs.map((s) => {
    const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(s);
    return byte ? Buffer.from([parseInt(byte[1]!, 16)]) : Buffer.from(s.replace(/\u2581/g, ' '), 'utf8');
  });
}

/** GPT-2's bytes_to_unicode, inverted: the character a byte-level BPE vocabulary writes for each byte. */
const BYTE_OF: ReadonlyMap<string, number> = (() => {
  const printable = (from: string, to: string): number[] => Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) => from.charCodeAt(0) + i);
  const direct = new Set([...printable('!', '~'), ...printable('¡', '¬'), ...printable('®', 'ÿ')]);
  const map = new Map<string, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCharCode(direct.has(b) ? b : 256 + shifted++), b);
  return map;
})();
