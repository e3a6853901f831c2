// "Check" on the Models view's Scoring server card: ask every endpoint what it serves, as a scoring job
// would (its model list and properties, then its tokenizer), with a short retry policy so an unreachable
// URL is reported in seconds rather than after a job's ten-minute patience. Each endpoint answers for
// itself (reachable, or the exact error); the endpoints together must serve one model for a job to use them.
import type { ScoringEndpointCheck, ScoringServerCheck, ScoringServerSettings } from '../../../../shared/api/model-types';
import { ExpectedError, serializeError } from '../../../../shared/api/errors';
import type { RetryPolicy } from './http';
import { createClient, runIdentity } from './client';
import { scoringBackend } from '../../../../shared/scoring/backends';

/** Two tries, five seconds each: a check should answer while the user waits. */
export const CHECK_RETRY: Partial<RetryPolicy> = { attempts: 2, baseDelayMs: 200, maxDelayMs: 500, timeoutMs: 5000 };

/** What the check tokenizes: a short text with a space and a digit (any tokenizer gives a few tokens). */
const PROBE = 'Check: 12 tools';

/**
 * Endpoint checks in flight at once in this process, whoever asked. Without a bound, 200 parallel checks of
 * 16 endpoints put 3,200 requests in flight: the live heap stays at ~40 MB, but the burst's peak (heap
 * ~170 MB, undici's buffers) left the process's RSS ~300 MB higher for good (the allocator keeps its pages).
 */
const MAX_CHECKS_IN_FLIGHT = 8;
let inFlight = 0;
const queue: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (inFlight >= MAX_CHECKS_IN_FLIGHT) await new Promise<void>((go) => queue.push(go));
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    queue.shift()?.();
  }
}

export async function checkScoringServers(
  settings: ScoringServerSettings,
  env: NodeJS.ProcessEnv = process.env,
  retry: Partial<RetryPolicy> = CHECK_RETRY,
): Promise<ScoringServerCheck> {
  const endpoints = await Promise.all(settings.endpoints.map((endpoint) => checkScoringEndpoint(settings, endpoint, env, retry)));
  return composeScoringCheck(settings, endpoints, env, new Date().toISOString());
}

/** Asks one endpoint what it serves, in turn with every other check of this process. */
export function checkScoringEndpoint(
  settings: ScoringServerSettings,
  endpoint: string,
  env: NodeJS.ProcessEnv = process.env,
  retry: Partial<RetryPolicy> = CHECK_RETRY,
): Promise<ScoringEndpointCheck> {
  const apiKey = settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined;
  return inTurn(() => checkOne(settings, endpoint, apiKey, retry));
}

/** What the endpoints' answers mean together for a job on these settings (the endpoints in the settings' order). */
export function composeScoringCheck(
  settings: ScoringServerSettings,
  endpoints: ScoringEndpointCheck[],
  env: NodeJS.ProcessEnv,
  checkedAt: string,
): ScoringServerCheck {
  const apiKey = settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined;
  const reachable = endpoints.filter((e) => e.reachable);
  const identities = [...new Set(reachable.map((e) => e.identity!))];
  let problem: string | null = null;
  if (settings.apiKeyEnv && !apiKey)
    problem = `the environment variable ${settings.apiKeyEnv} is not set in the engine's process: set it where the Studio (or \`lots ui\`) is started, or leave the API key variable empty`;
  else if (reachable.length === 0)
    problem = `no endpoint answered: a job would fail at once. Start a server (\`${scoringBackend(settings.backend).start}\`) or correct the URL${settings.endpoints.length === 1 ? '' : 's'}`;
  else if (identities.length > 1)
    problem = `the endpoints serve different models (${identities.join(', ')}): every endpoint of a job must serve the same model; remove the others or restart them with one model`;
  else if (reachable.length < endpoints.length)
    problem = `${endpoints.length - reachable.length} of ${endpoints.length} endpoints did not answer: a job would start on the ${reachable.length} that did`;
  return { settings, checkedAt, endpoints, identity: identities.length === 1 ? identities[0]! : null, problem };
}

async function checkOne(
  settings: ScoringServerSettings,
  endpoint: string,
  apiKey: string | undefined,
  retry: Partial<RetryPolicy>,
): Promise<ScoringEndpointCheck> {
  const started = performance.now();
  const result: ScoringEndpointCheck = {
    endpoint,
    reachable: false,
    model: null,
    identity: null,
    slots: null,
    contextSize: null,
    build: null,
    probeTokens: null,
    ms: 0,
    error: null,
  };
  try {
    if (settings.apiKeyEnv && !apiKey)
      throw new ExpectedError('SERVER_AUTH', `the environment variable ${settings.apiKeyEnv} (the API key) is not set in the engine's process`);
    const client = createClient(settings.backend, { baseUrl: endpoint, retry, ...(apiKey ? { apiKey } : {}) });
    const served = await client.servedModel();
    // The model id (and build) are the only texts of the server a check shows: short, one line.
    result.model = oneLine(served.name);
    result.identity = runIdentity(settings.backend, served);
    result.slots = served.slotsReported === false ? null : served.slots;
    result.contextSize = served.contextSize ?? null;
    result.build = served.build !== undefined ? oneLine(served.build) : null;
    if (settings.servedModel !== undefined && served.name !== settings.servedModel) {
      throw new ExpectedError(
        'SERVER_MODEL_MISMATCH',
        `${endpoint} serves "${served.name}", not "${settings.servedModel}" (the served-model name given): correct the name, or leave it empty to accept what the server serves`,
      );
    }
    const tokens = await client.tokenize(PROBE, false);
    if (tokens.ids.length === 0) throw new ExpectedError('SERVER_PROTOCOL', `${endpoint}/tokenize gave no tokens for "${PROBE}"`);
    result.probeTokens = tokens.ids.length;
    result.reachable = true;
  } catch (e) {
    const { code, message } = serializeError(e);
    const shownCode = code === 'INTERNAL' && e instanceof TypeError ? 'SERVER_UNAVAILABLE' : code;
    result.error = { code: shownCode, message: statusLine(settings, endpoint, shownCode, e instanceof TypeError ? `${message}${causeOf(e)}` : message) };
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

/**
 * What a check says of a failed endpoint: a status line (the HTTP status, or why no answer came), never
 * the text a server sent. Whoever can call the API chooses the URL, so a server's body (an internal page,
 * a secret it echoes) must not travel back through the check.
 */
function statusLine(settings: ScoringServerSettings, endpoint: string, code: string, message: string): string {
  const backend = scoringBackend(settings.backend).program;
  const status = /answered (\d{3})/.exec(message)?.[1];
  switch (code) {
    case 'SERVER_AUTH':
      if (status === undefined) return message; // our own: the key variable is not set
      return `${endpoint} answered HTTP ${status}: ${settings.apiKeyEnv ? `the key in ${settings.apiKeyEnv} was refused` : 'it needs an API key (give the API key variable)'}`;
    case 'SERVER_REJECTED':
      return `${endpoint} answered HTTP ${status ?? '4xx'}: no ${backend} answers at this URL (check the URL and the backend)`;
    case 'SERVER_PROTOCOL':
      return `${endpoint} answered${status ? ` HTTP ${status}` : ''}, but not as ${backend} does (check the URL and the backend)`;
    case 'SERVER_UNAVAILABLE': {
      if (status !== undefined) return `${endpoint} answered HTTP ${status} to every try: the server is busy or failing`;
      const why = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1] ?? (/timeout|timed out|aborted/i.test(message) ? 'no answer in time' : 'no answer');
      return `${endpoint} could not be reached (${why})`;
    }
    case 'SERVER_MODEL_MISMATCH':
      return message; // the two model ids
    default:
      return `${endpoint}: the check failed (${code})`;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function causeOf(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? ` (${cause.message})` : '';
}
