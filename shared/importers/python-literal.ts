// Python literals and calls as models and harnesses print them: `{'name': 'ls', 'arguments': {'a': True}}`
// (Hermes' ast.literal_eval fallback) and `mv(source='log.txt', destination='archive')` (BFCL's decoded calls).
// A small recursive-descent parser with a depth limit; it never throws and is linear in the input.

import { setOwn } from '../trace/own-record';

const MAX_NESTING = 100;

export type PyResult = { ok: true; value: unknown } | { ok: false };

export function parsePythonLiteral(text: string): PyResult {
  const p = new PyParser(text);
  try {
    p.ws();
    const value = p.value(0);
    p.ws();
    return p.done() ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** `name(kw=value, …)` with keyword arguments only; positional arguments make it unparseable (kept raw). */
export function parsePythonCall(text: string): { name: string; arguments: Record<string, unknown> } | null {
  const p = new PyParser(text);
  try {
    p.ws();
    const name = p.dottedName();
    if (!name) return null;
    p.ws();
    p.expect('(');
    const args: Record<string, unknown> = {};
    p.ws();
    if (!p.eat(')')) {
      for (;;) {
        p.ws();
        const key = p.identifier();
        if (!key) return null;
        p.ws();
        p.expect('=');
        p.ws();
        setOwn(args, key, p.value(0));
        p.ws();
        if (p.eat(')')) break;
        p.expect(',');
        p.ws();
        if (p.eat(')')) break;
      }
    }
    p.ws();
    return p.done() ? { name, arguments: args } : null;
  } catch {
    return null;
  }
}

/** BFCL prompting output: `[ls(a=True), pwd()]` → the call strings, split at top-level commas. */
export function splitPythonCallList(text: string): string[] | null {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return null;
  const inner = t.slice(1, -1);
  const out: string[] = [];
  let depth = 0;
  let quoteChar = '';
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (quoteChar) {
      if (c === '\\') i++;
      else if (c === quoteChar) quoteChar = '';
      continue;
    }
    if (c === '"' || c === "'") quoteChar = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last) out.push(last);
  return out;
}

class PyParser {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i === this.s.length;
  }

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  eat(c: string): boolean {
    if (this.s[this.i] === c) {
      this.i++;
      return true;
    }
    return false;
  }

  expect(c: string): void {
    if (!this.eat(c)) throw new Error(`expected ${c}`);
  }

  identifier(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i, this.i + 256));
    if (!m) return '';
    this.i += m[0].length;
    return m[0];
  }

  dottedName(): string {
    let name = this.identifier();
    while (name && this.s[this.i] === '.') {
      this.i++;
      const next = this.identifier();
      if (!next) throw new Error('bad name');
      name += '.' + next;
    }
    return name;
  }

  value(depth: number): unknown {
    if (depth > MAX_NESTING) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) throw new Error('end of input');
    if (c === '{') return this.dict(depth);
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') return this.sequence(')', depth);
    if (c === '"' || c === "'") return this.string();
    if (/[0-9+\-.]/.test(c)) return this.number();
    const word = this.identifier();
    if (word === 'True' || word === 'true') return true;
    if (word === 'False' || word === 'false') return false;
    if (word === 'None' || word === 'null') return null;
    throw new Error('unexpected token');
  }

  private dict(depth: number): Record<string, unknown> {
    this.expect('{');
    const out: Record<string, unknown> = {};
    this.ws();
    if (this.eat('}')) return out;
    for (;;) {
      this.ws();
      const key = this.value(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') throw new Error('bad key');
      this.ws();
      this.expect(':');
      setOwn(out, String(key), this.value(depth + 1));
      this.ws();
      if (this.eat('}')) return out;
      this.expect(',');
      this.ws();
      if (this.eat('}')) return out;
    }
  }

  private sequence(close: string, depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.ws();
    if (this.eat(close)) return out;
    for (;;) {
      out.push(this.value(depth + 1));
      this.ws();
      if (this.eat(close)) return out;
      this.expect(',');
      this.ws();
      if (this.eat(close)) return out;
    }
  }

  private string(): string {
    const q = this.s[this.i]!;
    const triple = this.s.startsWith(q.repeat(3), this.i);
    this.i += triple ? 3 : 1;
    const parts: string[] = [];
    let from = this.i;
    for (;;) {
      if (this.i >= this.s.length) throw new Error('unterminated string');
      const c = this.s[this.i]!;
      if (c === '\\') {
        parts.push(this.s.slice(from, this.i));
        parts.push(this.escape());
        from = this.i;
        continue;
      }
      if (c === q && (!triple || this.s.startsWith(q.repeat(3), this.i))) {
        parts.push(this.s.slice(from, this.i));
        this.i += triple ? 3 : 1;
        return parts.join('');
      }
      if (!triple && c === '\n') throw new Error('newline in string');
      this.i++;
    }
  }

  private escape(): string {
    const c = this.s[this.i + 1];
    this.i += 2;
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case '0':
        return '\0';
      case '\\':
        return '\\';
      case "'":
        return "'";
      case '"':
        return '"';
      case '\n':
        return '';
      case 'x':
        return this.hex(2);
      case 'u':
        return this.hex(4);
      case 'U':
        return this.hex(8);
      default:
        return '\\' + (c ?? '');
    }
  }

  private hex(n: number): string {
    const h = this.s.slice(this.i, this.i + n);
    if (!/^[0-9a-fA-F]+$/.test(h) || h.length !== n) throw new Error('bad escape');
    this.i += n;
    const code = parseInt(h, 16);
    if (code > 0x10ffff) throw new Error('bad code point');
    return String.fromCodePoint(code);
  }

  private number(): number {
    const m = /^[+-]?(\d[\d_]*)?(\.\d*)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 64));
    if (!m || m[0] === '' || m[0] === '+' || m[0] === '-' || m[0] === '.') throw new Error('bad number');
    this.i += m[0].length;
    const n = Number(m[0].replace(/_/g, ''));
    if (!Number.isFinite(n)) throw new Error('bad number');
    return n;
  }
}
