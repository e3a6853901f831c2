// Expected failures of pulling a model: a stable code and one line that says what went wrong and
// what to do (CONVENTIONS §8).
export type ModelSourceErrorCode =
  | 'SOURCE_INVALID'
  | 'PIP_MISSING'
  | 'REGISTRY_UNREACHABLE'
  | 'PACKAGE_NOT_FOUND'
  | 'NO_GGUF'
  | 'ARCHIVE_CORRUPT'
  | 'GGUF_INVALID'
  | 'CHECKSUM_MISMATCH'
  | 'DISK_FULL'
  | 'DOWNLOAD_FAILED'
  | 'CANCELLED'
  | 'MODEL_NOT_PULLED';

export class ModelSourceError extends Error {
  override name = 'ModelSourceError';
  constructor(readonly code: ModelSourceErrorCode, message: string) {
    super(message);
  }
}
