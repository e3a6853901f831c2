// Expected errors of remote scoring: a code and a message a user can act on (CONVENTIONS §8).
export type RemoteScoringErrorCode =
  /** No answer, or 429/5xx after every retry. */
  | 'SERVER_UNAVAILABLE'
  /** 401/403: the API key is missing or wrong. */
  | 'SERVER_AUTH'
  /** Another 4xx: the server does not accept what was sent (an old server, a wrong endpoint). */
  | 'SERVER_REJECTED'
  /** The answer is not what the protocol promises (missing fields, wrong lengths). */
  | 'SERVER_PROTOCOL'
  /** The endpoints serve different models, or not the one asked for. */
  | 'SERVER_MODEL_MISMATCH'
  /** Every endpoint failed: the work that is left cannot go anywhere. */
  | 'NO_ENDPOINT_LEFT';

export class RemoteScoringError extends Error {
  override name = 'RemoteScoringError';
  constructor(readonly code: RemoteScoringErrorCode, message: string) {
    super(message);
  }
}
