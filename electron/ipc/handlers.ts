// Registers the API contract on ipcMain through one wrapper: every call checks that it comes from our
// own top-level frame, then validates its input (dispatch) before the service sees it.
import type { IpcMainInvokeEvent } from 'electron';
import { API_METHOD_NAMES, methodChannel } from '../../shared/api/channels';
import type { ApiMethods } from '../../shared/api/contract';
import { TRANSPORT_ERRORS, type Envelope } from '../../shared/api/errors';
import { dispatch } from '../engine/api/dispatch';
import { APP_ORIGIN } from '../window/window-options';

/** The part of ipcMain the wrapper uses (ipcMain itself in the app, a fake in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The sender fields the check reads. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender: { id: number } };

/**
 * Trusted: the message comes from a top-level frame of one of our windows showing our origin.
 * A frame that navigated elsewhere, an iframe, or another webContents is refused.
 */
export function isTrustedSender(event: SenderEvent, windowIds: ReadonlySet<number>, origin = APP_ORIGIN): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!windowIds.has(event.sender.id)) return false;
  try {
    return new URL(frame.url).origin === origin || frame.url.startsWith(origin + '/');
  } catch {
    return false;
  }
}

export function forbidden(method: string): Envelope<never> {
  return { ok: false, error: { name: 'Forbidden', code: TRANSPORT_ERRORS.FORBIDDEN, message: `${method}: refused a message from an untrusted sender` } };
}

/** One handler per method; returns a function that removes them all. */
export function registerApiHandlers(ipc: IpcMainLike, service: ApiMethods, isTrusted: (event: SenderEvent) => boolean): () => void {
  for (const method of API_METHOD_NAMES) {
    ipc.handle(methodChannel(method), async (event, input) => {
      if (!isTrusted(event)) return forbidden(method);
      return dispatch(service, method, input);
    });
  }
  return () => API_METHOD_NAMES.forEach((m) => ipc.removeHandler(methodChannel(m)));
}
