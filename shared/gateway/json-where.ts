// Where a text stops being JSON: the offset of the first character no JSON document can have there (or
// the end, for a document cut short). JSON.parse says why but, in Node 20, not where; a client sending a
// malformed body deserves the line and column. Pure; a small recursive-descent scanner over RFC 8259.

/** The offset of the first error, or undefined when the text is one valid JSON value. */
class Stop extends Error {
  constructor(readonly at: number) {
    super(`not JSON at ${at}`);
  }
}

const HEX = /[0-9a-fA-F]/;

export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new Stop(i);
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const digits = (): void => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const string = (): void => {
    i++; // the opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') fail();
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!HEX.test(text[i] ?? '')) fail();
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail();
      } else i++;
    }
  };
  /** An object's members or an array's elements: `item`s separated by commas up to `close`. */
  const sequence = (close: string, item: () => void): void => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail();
    }
  };
  const value = (depth: number): void => {
    if (depth > 1000) fail();
    ws();
    const ch = text[i];
    if (ch === '{')
      return sequence('}', () => {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
      });
    if (ch === '[') return sequence(']', () => value(depth + 1));
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || /[0-9]/.test(ch ?? '')) return number();
    fail();
  };
  try {
    value(0);
    ws();
    return i < text.length ? i : undefined;
  } catch (e) {
    if (e instanceof Stop) return e.at;
    throw e;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
