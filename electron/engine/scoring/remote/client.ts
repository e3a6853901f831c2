// What a scoring server must do for the remote backend, whatever protocol it speaks: name the model
// it serves, tokenize with its own vocabulary, and return the log-probs of frozen tokens after a
// context (teacher-forced, never regenerated).
import type { HttpTarget, RetryPolicy } from './http';
import { LlamaServerClient } from './llama-server';
import { VllmClient } from './vllm';
import { knownSecrets, redactSecrets } from './redact';
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
  const secrets = knownSecrets(target.apiKey);
  const clean = (text: string): string => redactSecrets(text, secrets);
  const quiet: HttpTarget = {
    ...target,
    ...(target.onRetry ? { onRetry: (info) => target.onRetry!({ ...info, reason: clean(info.reason) }) } : {}),
    ...(target.onWait ? { onWait: (notice) => target.onWait!({ ...notice, message: clean(notice.message) }) } : {}),
  };
  switch (backend) {
    case 'llama-server':
      return redacting(new LlamaServerClient(quiet), clean);
    case 'vllm':
      return redacting(new VllmClient(quiet), clean);
  }
}

/** `client` with every text a server chose (its errors, its model's name and build) passed through `clean`
 * (redact.ts): a secret it quotes is never printed, stored in a job's state or shown. */
function redacting(client: PromptScoringClient, clean: (text: string) => string): PromptScoringClient {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (e instanceof Error) {
        e.message = clean(e.message);
        if (e.stack) e.stack = clean(e.stack);
      }
      throw e;
    }
  };
  return {
    backend: client.backend,
    endpoint: client.endpoint,
    servedModel: () =>
      guard(async () => {
        const served = await client.servedModel();
        return { ...served, name: clean(served.name), ...(served.build !== undefined ? { build: clean(served.build) } : {}) };
      }),
    tokenize: (text, special, signal) => guard(() => client.tokenize(text, special, signal)),
    scoredLogprobs: (tokens, start, end, signal) => guard(() => client.scoredLogprobs(tokens, start, end, signal)),
  };
}

/** `http://host:port/` or `host:port` → `http://host:port` (what the clients prepend to paths). */
export function normalizeEndpoint(url: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
  const parsed = new URL(withScheme);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`endpoint ${url}: only http and https are supported`);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}
