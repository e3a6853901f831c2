// The shapes of the official BFCL v4 data, as the package's files hold them (defined in shared/, beside
// the protocol that reads them), and the checker's verdict.
export type { BfclAnswer, BfclDoc, BfclEntry } from '../../../shared/benchmark/bfcl';

/** multi_turn_checker's verdict: valid, or why not. */
export interface BfclCheckVerdict {
  valid: boolean;
  error_message?: string;
  error_type?: string;
  details?: unknown;
}
