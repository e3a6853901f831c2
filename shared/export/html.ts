// Escaping for the HTML report: every piece of user data goes through one of these.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in text and in quoted attribute values (HTML and inline SVG). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A number for display: fixed digits, "—" for a missing or non-finite value. */
export function formatScore(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Coordinates for SVG attributes (two decimals keep the file small). */
export function px(x: number): string {
  return (Math.round(x * 100) / 100).toString();
}
