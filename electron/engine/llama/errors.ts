// Expected model errors: a stable code and a message that says what to do (CONVENTIONS §8).
export type ModelErrorCode =
  | 'MODEL_NOT_FOUND'
  | 'MODEL_CORRUPT'
  | 'MODEL_UNSUPPORTED'
  | 'MODEL_DOES_NOT_FIT'
  | 'GPU_UNAVAILABLE'
  | 'CONTEXT_OVERFLOW';

export class ModelError extends Error {
  override name = 'ModelError';
  constructor(readonly code: ModelErrorCode, message: string) {
    super(message);
  }
}
