// Errors that cross a transport (IPC, HTTP) travel as { name, code, message } and are rebuilt on the
// other side, so the renderer can tell an expected error (a code it can explain) from a bug.

export interface SerializedError {
  name: string;
  code: string;
  message: string;
}

/** An error from the engine as the renderer sees it. `code` is stable; `message` says what to do. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(readonly code: string, message: string, readonly originalName = 'Error') {
    super(message);
  }
}

/** Codes the transports themselves produce (the engine adds its own: PROJECT_LOCKED, NOT_FOUND, …). */
export const TRANSPORT_ERRORS = {
  INVALID_INPUT: 'INVALID_INPUT',
  NO_PROJECT: 'NO_PROJECT',
  UNKNOWN_METHOD: 'UNKNOWN_METHOD',
  FORBIDDEN: 'FORBIDDEN',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;

export function serializeError(e: unknown): SerializedError {
  if (e instanceof ApiError) return { name: e.originalName, code: e.code, message: e.message };
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { name: e.name, code, message: e.message };
    // A bug: the message is kept (it helps a report) but the code says it was not expected.
    return { name: e.name, code: TRANSPORT_ERRORS.INTERNAL, message: e.message };
  }
  return { name: 'Error', code: TRANSPORT_ERRORS.INTERNAL, message: String(e) };
}

export function rebuildError(e: SerializedError): ApiError {
  return new ApiError(e.code, e.message, e.name);
}

export function isSerializedError(value: unknown): value is SerializedError {
  return Boolean(value) && typeof value === 'object' && typeof (value as SerializedError).code === 'string' && typeof (value as SerializedError).message === 'string';
}

/** The envelope every call returns over a transport: errors are values, not exceptions, so codes survive. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };
