// Turning an error from the engine into a notice a user can act on.
import { ApiError, ERROR_HINTS as HINTS } from '../../shared/api';
import type { Notice } from './types';

export function toNotice(e: unknown, title: string): Omit<Notice, 'id'> {
  if (e instanceof ApiError) {
    return { kind: 'error', title, message: e.message, code: e.code, hint: HINTS[e.code] };
  }
  if (e instanceof TypeError && /fetch|network/i.test(e.message)) {
    return { kind: 'error', title, message: e.message, code: 'NETWORK', hint: HINTS.NETWORK };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { kind: 'error', title, message, code: 'INTERNAL', hint: HINTS.INTERNAL };
}
