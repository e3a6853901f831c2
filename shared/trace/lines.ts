// Line breaks as text files have them: LF (Unix), CRLF (Windows) and, from old Macs and some exporters,
// a lone CR. A text whose first line break is a lone CR is read with CR line breaks; otherwise a CR is
// only dropped before a LF (a lone CR inside a LF file stays what it is).

/** True when the text's first line break is a lone CR (classic Mac line endings). */
export function usesCrLineBreaks(text: string): boolean {
  const cr = text.indexOf('\r');
  if (cr < 0) return false;
  const lf = text.indexOf('\n');
  return (lf < 0 || cr < lf) && text[cr + 1] !== '\n';
}

/** The text with CR-only line breaks turned into LF (unchanged unless it uses them). A raw CR can only be
 * whitespace in valid JSON, so JSON texts keep their meaning. */
export function normaliseLineBreaks(text: string): string {
  return usesCrLineBreaks(text) ? text.replace(/\r\n?/g, '\n') : text;
}
