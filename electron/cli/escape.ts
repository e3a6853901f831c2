// Terminal-safe text. Task labels, tool names, file names and the contents of rejected lines come from
// files anyone can write; printed raw, an ESC or C1 sequence in them retitles the window, clears the
// screen or worse, and a NUL or CR hides text. Every character a terminal could act on is shown as an
// escape instead: C0 controls (all but tab, and newline where a whole message is printed), DEL, C1
// controls, and the bidirectional overrides that reorder what is shown. The escapes are JSON's
// (\n, \r, \uXXXX), so escaping JSON output keeps it valid JSON with the same value.

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_KEEP_NEWLINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One user-provided value (a label, a tool name, a path) made safe to print inside a line: newlines too are escaped. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** A whole message made safe to print: line breaks and tabs stay, every other control character is escaped. */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE_KEEP_NEWLINES, escapeChar);
}
