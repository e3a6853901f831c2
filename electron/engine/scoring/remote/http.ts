// JSON over HTTP to a scoring server, with the retry policy a shared serving engine needs: 429 and
// 5xx answers and dropped connections are retried with exponential backoff (full jitter, honouring
// Retry-After); 4xx answers are the request's fault and are not. Each attempt has its own timeout.
// A server's answer is not trusted to end: its body is read under a size cap (a larger one is refused
// at once, by its Content-Length or as it arrives) and deadlines (a gap between two pieces of it, and the
// whole of it once the headers are in), and a request still waiting says so every `noticeMs`.
import { ExpectedError } from '../../../../shared/api/errors';
import { knownSecrets, redactSecrets } from './redact';

export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  attempts: number;
  /** Backoff before retry k (1-based) is a random wait in [0, min(maxDelayMs, baseDelayMs · 2^(k−1))]. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** One attempt's limit (default 10 minutes: a long prompt on a busy CPU server is slow, not dead). */
  timeoutMs: number;
  /** Once the headers are in, the longest wait for the next piece of the body (the idle deadline; default 30 s). */
  idleMs: number;
  /** Once the headers are in, the longest the whole body may take (default 2 minutes): a scoring server sends
   * its JSON at once when it is computed, so a body still arriving after that is stalled or dripped. */
  bodyTimeoutMs: number;
  /** The largest body accepted (default 64 MiB; a scoring answer is kilobytes, a long /tokenize a few MB). */
  maxBodyBytes: number;
  /** How often a request still waiting reports it (onWait; default 30 s). */
  noticeMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  timeoutMs: 600_000,
  idleMs: 30_000,
  bodyTimeoutMs: 120_000,
  maxBodyBytes: 64 * 1024 * 1024,
  noticeMs: 30_000,
};

/** A request that is still waiting: for the answer to start, or for the rest of its body. */
export interface WaitNotice {
  path: string;
  attempt: number;
  attempts: number;
  waitedMs: number;
  /** One line for a job's progress: what it waits for, since when, and the limit. */
  message: string;
}

export interface HttpTarget {
  /** Base URL, without a trailing slash: http://host:port */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  retry?: Partial<RetryPolicy>;
  /** Called before each retry (for logs and tests). */
  onRetry?: (info: { path: string; attempt: number; attempts: number; reason: string; delayMs: number }) => void;
  /** Called every `noticeMs` while one attempt is still waiting. */
  onWait?: (notice: WaitNotice) => void;
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
  // A server's text (an error body, a dropped connection's reason) may quote the key: hidden before it
  // becomes part of any message (redact.ts).
  const secrets = knownSecrets(target.apiKey);
  const shown = (text: string): string => redactSecrets(text, secrets);
  let last = '';
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    signal?.throwIfAborted();
    let retryAfterMs: number | undefined;
    const attemptStarted = performance.now();
    let phase = 'to answer';
    const notices =
      target.onWait &&
      setInterval(() => {
        const waitedMs = performance.now() - attemptStarted;
        target.onWait!({
          path,
          attempt,
          attempts: policy.attempts,
          waitedMs,
          message: `waiting for ${method} ${url} ${phase}: ${formatMs(waitedMs)} so far (attempt ${attempt} of ${policy.attempts}, each up to ${formatMs(policy.timeoutMs)})`,
        });
      }, policy.noticeMs);
    try {
      const response = await fetch(url, { method, headers, body: payload, signal: withTimeout(signal, policy.timeoutMs) });
      phase = 'to finish its answer';
      const text = await readBody(response, `${method} ${url}`, policy);
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new ExpectedError('SERVER_PROTOCOL', `${method} ${url} answered ${response.status} with a body that is not JSON: ${shown(text.slice(0, 200))}`);
        }
      }
      if (!retryableStatus(response.status)) {
        throw new ExpectedError(
          response.status === 401 || response.status === 403 ? 'SERVER_AUTH' : 'SERVER_REJECTED',
          `${method} ${url} answered ${response.status}: ${shown(text.slice(0, 300))}`,
        );
      }
      last = `${response.status} ${shown(text.slice(0, 200))}`;
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    } catch (e) {
      if (e instanceof ExpectedError) throw e;
      if (signal?.aborted) throw e;
      last = shown(e instanceof Error ? `${e.name}: ${e.message}${causeOf(e)}` : String(e));
    } finally {
      if (notices) clearInterval(notices);
    }
    if (attempt === policy.attempts) break;
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const delayMs = Math.max(retryAfterMs ?? 0, Math.random() * ceiling);
    target.onRetry?.({ path, attempt, attempts: policy.attempts, reason: last, delayMs });
    await sleep(delayMs, signal);
  }
  throw new ExpectedError('SERVER_UNAVAILABLE', `${method} ${url} failed ${policy.attempts} times; last: ${last}`);
}

/** A body that stopped arriving, or arrived too slowly: worth another attempt, like a dropped connection. */
class BodyStalled extends Error {
  override name = 'BodyStalled';
}

/**
 * The answer's body as text, refused when it is larger than `maxBodyBytes` (by its Content-Length, before
 * any of it is read, or as it arrives) and given up when a piece of it takes longer than `idleMs` or the
 * whole of it longer than `bodyTimeoutMs`.
 */
async function readBody(response: Response, request: string, policy: RetryPolicy): Promise<string> {
  const tooLarge = (bytes: string): ExpectedError =>
    new ExpectedError(
      'SERVER_PROTOCOL',
      `${request} answered ${response.status} with a body of ${bytes}, more than the ${formatBytes(policy.maxBodyBytes)} a scoring server's answer can need: this is not a scoring server's answer (check the URL) or a broken one`,
    );
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > policy.maxBodyBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`${formatBytes(Number(declared))} (its Content-Length)`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = performance.now() + policy.bodyTimeoutMs;
  let finished = false;
  try {
    for (;;) {
      const left = deadline - performance.now();
      const wait = Math.max(0, Math.min(policy.idleMs, left));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((done) => (timer = setTimeout(() => done('timeout'), wait)));
      const next = await Promise.race([reader.read(), timedOut]).finally(() => clearTimeout(timer));
      if (next === 'timeout') {
        throw new BodyStalled(
          wait < policy.idleMs
            ? `${request}: the body was not complete ${formatMs(policy.bodyTimeoutMs)} after the headers (${formatBytes(size)} by then)`
            : `${request}: no byte of the body came for ${formatMs(policy.idleMs)} (${formatBytes(size)} so far)`,
        );
      }
      if (next.done) {
        finished = true;
        break;
      }
      size += next.value.byteLength;
      if (size > policy.maxBodyBytes) throw tooLarge(`more than ${formatBytes(size)} (read so far)`);
      chunks.push(next.value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} min`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
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
