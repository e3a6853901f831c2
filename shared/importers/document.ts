// Structure of whole JSON documents without parsing them in one piece: where each top-level element
// (of an array) or value (of an object) starts and ends, so each can be parsed and reported on its own line.
// One pass over the text, string- and escape-aware; it never recurses.

export interface DocumentPart {
  /** Offsets into the text: [start, end). */
  start: number;
  end: number;
  line: number;
  /** The key of this value in a top-level object. */
  key?: string;
}

export interface DocumentLayout {
  kind: 'array' | 'object' | 'scalar';
  parts: DocumentPart[];
}

/**
 * Split a text holding exactly one JSON array or object into its top-level parts. Returns null when the
 * text is not one balanced value (e.g. JSON Lines, or a truncated document), so the caller can fall back.
 */
export function layoutDocument(text: string): DocumentLayout | null {
  let i = skipWs(text, 0);
  const open = text[i];
  if (open !== '[' && open !== '{') return null;
  const kind = open === '[' ? 'array' : 'object';
  const parts: DocumentPart[] = [];
  let line = 1 + countNewlines(text, 0, i);
  let depth = 0;
  let inString = false;
  let partStart = -1;
  let partLine = 0;
  let keyStart = -1;
  let key: string | undefined;
  let expectKey = kind === 'object';
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) {
        inString = false;
        if (depth === 1 && expectKey && keyStart >= 0) {
          try {
            key = JSON.parse(text.slice(keyStart, i + 1)) as string;
          } catch {
            return null;
          }
          keyStart = -1;
        }
      }
      continue;
    }
    if (c === 34) {
      inString = true;
      if (depth === 1 && expectKey) keyStart = i;
      else if (depth === 1 && partStart < 0) {
        partStart = i;
        partLine = line;
      }
      continue;
    }
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === 91 || c === 123) {
      if (depth === 1 && partStart < 0 && !expectKey) {
        partStart = i;
        partLine = line;
      }
      depth++;
      continue;
    }
    if (c === 93 || c === 125) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        if (partStart >= 0) parts.push(closePart(text, partStart, i, partLine, key));
        return skipWs(text, i + 1) === text.length ? { kind, parts } : null;
      }
      continue;
    }
    if (depth === 1) {
      if (c === 58 && kind === 'object') {
        expectKey = false;
        continue;
      }
      if (c === 44) {
        if (partStart < 0) return null;
        parts.push(closePart(text, partStart, i, partLine, key));
        partStart = -1;
        key = undefined;
        expectKey = kind === 'object';
        continue;
      }
      if (partStart < 0 && !expectKey) {
        partStart = i;
        partLine = line;
      }
    }
  }
  return null;
}

function closePart(text: string, start: number, end: number, line: number, key: string | undefined): DocumentPart {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return key === undefined ? { start, end: e, line } : { start, end: e, line, key };
}

function skipWs(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Several JSON values written one after another (`{…} {…}`), as some `<tools>` blocks hold them. */
export function splitConcatenatedJson(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (depth === 0) start = i;
      depth++;
    } else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0 && start >= 0) {
        out.push(text.slice(start, i + 1));
        start = -1;
      }
      if (depth < 0) depth = 0;
    }
  }
  return out;
}
