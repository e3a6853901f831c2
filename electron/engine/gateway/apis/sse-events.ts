// Server-sent events read as they arrive, for the adapters whose streams are named events carrying JSON
// (Responses, Anthropic Messages): each complete event's `data` is parsed and handed on. What is kept is
// capped (MESSAGE_CAP): an answer over it is reported truncated, not recorded half. Pure.
import { MESSAGE_CAP } from '../../../../shared/gateway/sse';

export class SseEvents {
  private pending = '';
  private data: string[] = [];
  private event: string | undefined;
  private seen = 0;
  truncated = false;

  constructor(private readonly each: (event: string | undefined, data: unknown) => void) {}

  push(text: string): void {
    this.seen += text.length;
    if (this.seen > MESSAGE_CAP) {
      this.truncated = true;
      return;
    }
    this.pending += text;
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, nl).replace(/\r$/, '');
      this.pending = this.pending.slice(nl + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const text = this.data.join('\n');
        let value: unknown = text;
        try {
          value = JSON.parse(text);
        } catch {
          /* not JSON: handed on as text */
        }
        this.each(this.event, value);
      }
      this.data = [];
      this.event = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }

  /** The last event, when the stream ended without the blank line after it. */
  end(): void {
    if (this.pending !== '') this.line(this.pending);
    this.pending = '';
    this.line('');
  }
}
