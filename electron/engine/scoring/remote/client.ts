// What a scoring server must do for the remote backend, whatever protocol it speaks: name the model
// it serves, tokenize with its own vocabulary, and return the log-probs of frozen tokens after a
// context (teacher-forced, never regenerated).
import type { HttpTarget, RetryPolicy } from './http';
import { LlamaServerClient } from './llama-server';
import { VllmClient } from './vllm';
import { SCORING_SERVER_BACKENDS, type ScoringServerBackend } from '../../../../shared/scoring/backends';

export interface ServedModel {
  /** The served model's name (`--served-model` must match it when given). */
  name: string;
  /** A revision or hash of what the server reports about the weights: part of the run key. */
  revision: string;
  /** Requests the server works on at once (its slots); the default concurrency per endpoint. */
  slots: number;
  /** False when the server did not say and `slots` is the default of 1. */
  slotsReported?: boolean;
  /** Tokens per slot, when the server says. */
  contextSize?: number;
  build?: string;
}

export interface ServerTokens {
  ids: number[];
  /** Each token's text (special tokens spelled out). */
  pieces: string[];
}

export interface PromptScoringClient {
  readonly backend: string;
  readonly endpoint: string;
  servedModel(): Promise<ServedModel>;
  /** Tokenize without adding BOS/EOS; `special` parses special-token spellings as special tokens. */
  tokenize(text: string, special: boolean, signal?: AbortSignal): Promise<ServerTokens>;
  /** log p(tokens[i] | tokens[0..i)) for i in [start, end). */
  scoredLogprobs(tokens: readonly number[], start: number, end: number, signal?: AbortSignal): Promise<number[]>;
}

/** The backends `lots score --backend` knows, named after the server they talk to: the registry's
 * (shared/scoring/backends.ts), each with its client in createClient below. */
export const REMOTE_BACKENDS = SCORING_SERVER_BACKENDS;
export type RemoteBackend = ScoringServerBackend;

/** A job's remote backend, as stored in its state file (the API key itself never is: only the
 * variable that holds it). */
export interface RemoteScoringSpec {
  backend: RemoteBackend;
  endpoints: string[];
  /** Environment variable with the API key (sent as a bearer token). */
  apiKeyEnv?: string;
  /** The model the endpoints must serve (checked against what they report). */
  servedModel?: string;
  /** Requests in flight per endpoint (default: the server's slots), 1..MAX_SLOTS. */
  concurrency?: number;
  /** The HTTP retry policy and deadlines (default http.ts' DEFAULT_RETRY); the fault suite shortens them. */
  retry?: Partial<RetryPolicy>;
}

/** The model part of a remote run key (and the `model` of its score rows): what the endpoints serve,
 * never a local file's hash, so local and server scores never mix. */
export function runIdentity(backend: RemoteBackend, served: ServedModel): string {
  return `${backend}:${served.name}@${served.revision}`.replace(/\|/g, '_');
}

export function createClient(backend: RemoteBackend, target: HttpTarget): PromptScoringClient {
  switch (backend) {
    case 'llama-server':
      return new LlamaServerClient(target);
    case 'vllm':
      return new VllmClient(target);
  }
}

/** `http://host:port/` or `host:port` → `http://host:port` (what the clients prepend to paths). */
export function normalizeEndpoint(url: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
  const parsed = new URL(withScheme);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`endpoint ${url}: only http and https are supported`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}
