// A value from a request (a task name, a path, a header) as it may appear in a log line or an answer:
// control characters (a newline that would start a forged log line, a terminal escape) and the Unicode
// line and paragraph separators written as \xNN / \uNNNN escapes, and long values cut. Pure.

/** `s` with every control character escaped, cut to `max` characters (an ellipsis says it was cut). */
export function printable(s: string, max = 200): string {
  const safe = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}
