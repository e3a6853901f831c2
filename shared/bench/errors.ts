// Expected errors of the benchmark: a code and a message a user can act on.
export type BenchErrorCode = 'NOT_A_BENCH_TRACE' | 'BENCH_MISMATCH' | 'INVALID_INPUT';

export class BenchError extends Error {
  override name = 'BenchError';
  constructor(readonly code: BenchErrorCode, message: string) {
    super(message);
  }
}
