// JSON over HTTP to a scoring server, with the retry policy a shared serving engine needs: 429 and
// 5xx answers and dropped connections are retried with exponential backoff (full jitter, honouring
// Retry-After); 4xx answers are the request's fault and are not. Each attempt has its own timeout.
import { ExpectedError } from '../../../../shared/api/errors';

export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  attempts: number;
  /** Backoff before retry k (1-based) is a random wait in [0, min(maxDelayMs, baseDelayMs · 2^(k−1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** One attempt's limit (default 10 minutes: a long prompt on a busy CPU server is slow, not dead). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8000, timeoutMs: 600_000 };

export interface HttpTarget {
  /** Base URL, without a trailing slash: http://host:port */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  /** Called before each retry (for logs and tests). */
  onRetry?: (info: { path: string; attempt: number; reason: string; delayMs: number }) => void;
}

/** Status codes worth another try: the server is busy or failed, not the request. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export async function requestJson<T>(target: HttpTarget, method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const policy = { ...DEFAULT_RETRY, ...target.retry };
  const url = `${target.baseUrl}${path}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  let last = '';
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    signal?.throwIfAborted();
    let retryAfterMs: number | undefined;
    try {
      const response = await fetch(url, { method, headers, body: payload, signal: withTimeout(signal, policy.timeoutMs) });
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new ExpectedError('SERVER_PROTOCOL', `${method} ${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
        }
      }
      if (!retryableStatus(response.status)) {
        throw new ExpectedError(
          response.status === 401 || response.status === 403 ? 'SERVER_AUTH' : 'SERVER_REJECTED',
          `${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`,
        );
      }
      last = `${response.status} ${text.slice(0, 200)}`;
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    } catch (e) {
      if (e instanceof ExpectedError) throw e;
      if (signal?.aborted) throw e;
      last = e instanceof Error ? `${e.name}: ${e.message}${causeOf(e)}` : String(e);
    }
    if (attempt === policy.attempts) break;
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const delayMs = Math.max(retryAfterMs ?? 0, Math.random() * ceiling);
    target.onRetry?.({ path, attempt, reason: last, delayMs });
    await sleep(delayMs, signal);
  }
  throw new ExpectedError('SERVER_UNAVAILABLE', `${method} ${url} failed ${policy.attempts} times; last: ${last}`);
}

function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(60_000, Math.max(0, seconds * 1000));
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.min(60_000, Math.max(0, at - Date.now())) : undefined;
}

function causeOf(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? ` (${cause.message})` : '';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      fail(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
