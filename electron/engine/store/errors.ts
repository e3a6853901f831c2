// Expected errors of the engine: a code and a message a user can act on (CONVENTIONS §8).
export type EngineErrorCode =
  | 'PROJECT_NOT_FOUND'
  | 'PROJECT_INVALID'
  | 'PROJECT_TOO_NEW'
  | 'PROJECT_LOCKED'
  /** A file of the project cannot be read as what LOTS Studio wrote there (the message names it and says what to do). */
  | 'PROJECT_FILE_DAMAGED'
  | 'TRACE_CONFLICT'
  | 'NOT_FOUND'
  | 'INVALID_INPUT'
  /** The user stopped it (Ctrl-C, a Cancel button); what was committed before is kept. */
  | 'CANCELLED';

export class EngineError extends Error {
  override name = 'EngineError';
  constructor(readonly code: EngineErrorCode, message: string) {
    super(message);
  }
}
