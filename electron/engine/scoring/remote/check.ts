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

export async function checkScoringServers(
  settings: ScoringServerSettings,
  env: NodeJS.ProcessEnv = process.env,
  retry: Partial<RetryPolicy> = CHECK_RETRY,
): Promise<ScoringServerCheck> {
  const apiKey = settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined;
  const endpoints = await Promise.all(settings.endpoints.map((endpoint) => checkOne(settings, endpoint, apiKey, retry)));
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
  return { settings, checkedAt: new Date().toISOString(), endpoints, identity: identities.length === 1 ? identities[0]! : null, problem };
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
    result.model = served.name;
    result.identity = runIdentity(settings.backend, served);
    result.slots = served.slotsReported === false ? null : served.slots;
    result.contextSize = served.contextSize ?? null;
    result.build = served.build ?? null;
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
    // fetch's own failure (a TypeError) says only "fetch failed"; the cause names the refusal.
    result.error = {
      code: code === 'INTERNAL' && e instanceof TypeError ? 'SERVER_UNAVAILABLE' : code,
      message: e instanceof TypeError ? `${endpoint}: ${message}${causeOf(e)}` : message,
    };
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

function causeOf(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? ` (${cause.message})` : '';
}
