// The API contract over the local web host: calls are POSTs (the session cookie carries the token),
// events arrive on one WebSocket that reconnects on its own.
import { EVENTS_PATH, methodPath, type ApiEventName, type ApiEvents, type ApiTransport, type Envelope } from '../../shared/api';

export function webTransport(base: string = window.location.origin): ApiTransport {
  const listeners = new Map<ApiEventName, Set<(payload: never) => void>>();
  let socket: WebSocket | null = null;
  let retry = 0;

  function connect(): void {
    const url = new URL(EVENTS_PATH, base);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url);
    socket.onopen = () => {
      // After a reconnect, events may have been missed: views refetch their snapshots.
      if (retry > 0) for (const l of listeners.get('projectChanged') ?? []) l({ reason: 'scores' } as never);
      retry = 0;
    };
    socket.onmessage = (m) => {
      try {
        const { event, payload } = JSON.parse(String(m.data)) as { event: ApiEventName; payload: never };
        for (const l of listeners.get(event) ?? []) l(payload);
      } catch {
        /* a malformed event is dropped; the next snapshot fetch corrects the view */
      }
    };
    socket.onclose = () => {
      socket = null;
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }

  return {
    async call(method, input): Promise<Envelope<unknown>> {
      const res = await fetch(new URL(methodPath(method), base), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(input ?? null),
      });
      if (res.status === 401 || res.status === 403) {
        return { ok: false, error: { name: 'Forbidden', code: 'FORBIDDEN', message: (await res.text()).trim() } };
      }
      if (!res.ok && res.headers.get('content-type')?.startsWith('application/json') !== true) {
        return { ok: false, error: { name: 'HttpError', code: 'INTERNAL', message: `the engine answered HTTP ${res.status}` } };
      }
      return (await res.json()) as Envelope<unknown>;
    },
    subscribe<E extends ApiEventName>(event: E, listener: (payload: ApiEvents[E]) => void) {
      if (!socket) connect();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
}
