// Turning an error from the engine into a notice a user can act on.
import { ApiError } from '../../shared/api';
import type { Notice } from './types';

const HINTS: Record<string, string> = {
  NO_PROJECT: 'Open a project folder, create one, or build the demo project from the Demo view.',
  FORBIDDEN: 'Open the UI from the URL that `lots ui` printed (it carries the access token).',
  INTERNAL: 'This is a bug. The engine log (the terminal running the Studio) has the details; please report it.',
  UNAVAILABLE: 'This build or transport cannot do that yet.',
  OFFLINE: 'No network here: pick a GGUF file already on disk instead.',
  PROJECT_LOCKED: 'Another process is writing to the project; wait for it to finish.',
  PROJECT_FILE_DAMAGED: 'A file of the project is damaged (the message names it): restore it from a backup, or delete it as the message says.',
  NETWORK: 'The engine is not reachable. Is `lots ui` (or the desktop app) still running? Reload when it is.',
};

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
