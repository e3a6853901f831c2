// A typed event hub: the service emits, every transport (IPC, WebSocket) forwards to its clients.
import type { ApiEventName, ApiEvents } from '../../../shared/api/contract';

type Listener<E extends ApiEventName> = (payload: ApiEvents[E]) => void;

export class ServiceEvents {
  private readonly listeners = new Map<ApiEventName, Set<Listener<ApiEventName>>>();

  on<E extends ApiEventName>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<ApiEventName>);
    return () => set.delete(listener as Listener<ApiEventName>);
  }

  /** Also forwards every event to one sink (a transport that relays all of them). */
  onAny(sink: <E extends ApiEventName>(event: E, payload: ApiEvents[E]) => void): () => void {
    const offs = (['jobUpdate', 'projectChanged', 'menuCommand'] as const).map((e) => this.on(e, (p) => sink(e, p)));
    return () => offs.forEach((off) => off());
  }

  emit<E extends ApiEventName>(event: E, payload: ApiEvents[E]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        l(payload);
      } catch (e) {
        // A broken client must not stop the others from hearing the event.
        console.error(`lots: listener of ${event} failed:`, e);
      }
    }
  }
}
