// The line framing of MCP's stdio transport (one JSON-RPC message a line), with a limit per message that
// does not cost the connection. The SDK's own reader throws once its buffer passes its limit and its
// transport then closes: one oversized result (a 12 MB file read) leaves a gateway that answers "Not
// connected" forever. Here a line over the limit is not kept: its bytes are only scanned, as they pass,
// for the message's top-level `id` and whether it is a request (`method`) or a response, so the caller
// can answer that one request with an error and go on. Memory stays bounded by the limit whatever comes.
// Pure (bytes in, frames out): used by the gateway's stdio transports in electron/engine/gateway/.

export type Frame =
  | { kind: 'line'; text: string }
  /** A message over the limit, not kept: its size in bytes, its top-level id (when it has one) and whether it has a method. */
  | { kind: 'oversized'; bytes: number; id?: string | number; method: boolean };

const NEWLINE = 10;

export class LineFramer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  /** Set while a line over the limit is being skipped. */
  private skipping?: TopLevelScanner;
  private readonly decoder = new TextDecoder();

  constructor(readonly maxBytes: number) {}

  /** The frames completed by this chunk, in order. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      const part = chunk.subarray(start, end);
      if (this.skipping) this.skipping.feed(part);
      else if (this.size + part.length > this.maxBytes) {
        // Over the limit: scan what was kept, then drop it and scan the rest as it passes.
        const scanner = new TopLevelScanner();
        for (const c of this.chunks) scanner.feed(c);
        scanner.feed(part);
        this.chunks = [];
        this.skipping = scanner;
      } else if (part.length > 0) {
        // Copied: the caller's buffer may be reused after push returns.
        this.chunks.push(part.slice());
      }
      this.size += part.length;
      if (nl === -1) break;
      frames.push(this.finishLine());
      start = nl + 1;
    }
    return frames.filter((f) => f.kind === 'oversized' || f.text.trim() !== '');
  }

  private finishLine(): Frame {
    const size = this.size;
    const skipped = this.skipping;
    this.size = 0;
    this.skipping = undefined;
    if (skipped) return { kind: 'oversized', bytes: size, ...skipped.result() };
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks, size);
    this.chunks = [];
    return { kind: 'line', text: this.decoder.decode(bytes).replace(/\r$/, '') };
  }

  /** Bytes of a line not yet ended by a newline. */
  get pending(): number {
    return this.size;
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** Longest key or id value kept while scanning (an id longer than this is not reported). */
const MAX_TOKEN = 256;

/**
 * Reads a JSON object's bytes as they pass and keeps only its top-level `id` (a number or a string) and
 * whether it has a top-level `method`. Every structural character of JSON is ASCII, so bytes of UTF-8
 * text never look like one; everything nested is skipped with a depth count.
 */
export class TopLevelScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: reading a key, after a key (before its colon), or reading a value. */
  private where: 'key' | 'colon' | 'value' = 'key';
  private key: number[] = [];
  private currentKey = '';
  private value: number[] = [];
  private hasMethod = false;
  private id?: string | number;

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) this.byte(bytes[i]!);
  }

  private byte(b: number): void {
    if (this.inString) {
      if (this.depth === 1) this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.depth === 1 && this.where === 'key') {
          this.currentKey = String.fromCharCode(...this.key.slice(1, -1));
          this.where = 'colon';
        }
      }
      return;
    }
    if (b === QUOTE) {
      this.inString = true;
      if (this.depth === 1) {
        if (this.where === 'key') this.key = [];
        this.keep(b);
      }
      return;
    }
    if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      this.depth++;
      if (this.depth === 1) this.where = 'key';
      return;
    }
    if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      if (this.depth === 1) this.endValue();
      this.depth = Math.max(0, this.depth - 1);
      return;
    }
    if (this.depth !== 1) return;
    if (b === COLON && this.where === 'colon') {
      this.where = 'value';
      this.value = [];
    } else if (b === COMMA) {
      this.endValue();
      this.where = 'key';
    } else if (this.where === 'value') this.keep(b);
  }

  private keep(b: number): void {
    if (this.where === 'key') {
      if (this.key.length < MAX_TOKEN) this.key.push(b);
    } else if (this.where === 'value' && this.currentKey === 'id' && this.value.length <= MAX_TOKEN) this.value.push(b);
  }

  private endValue(): void {
    if (this.where !== 'value') return;
    if (this.currentKey === 'method') this.hasMethod = true;
    if (this.currentKey === 'id' && this.value.length <= MAX_TOKEN) {
      try {
        const v: unknown = JSON.parse(new TextDecoder().decode(new Uint8Array(this.value)));
        if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) this.id = v;
      } catch {
        // Not a JSON value: no id to answer.
      }
    }
    this.where = 'key';
    this.currentKey = '';
  }

  result(): { id?: string | number; method: boolean } {
    return { ...(this.id !== undefined ? { id: this.id } : {}), method: this.hasMethod };
  }
}
