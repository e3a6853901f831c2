// A deferred tool's demoted form (the paper's documentation demotion, Appendix B.1): its name and the
// first sentence of its description, no schema. Every API (and the BFCL menus) wraps these two in its own tool form.
import type { ToolDef } from './schema';

/** The demoted form's description: the first sentence of the recorded one, at most 120 characters. */
export function shortDescription(description: string): string {
  const text = description.trim().replace(/\s+/g, ' ');
  const end = text.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  return sentence.length <= 120 ? sentence : `${sentence.slice(0, 119).trimEnd()}…`;
}

function demotedDescription(d: ToolDef): { description?: string } {
  return d.description !== undefined && d.description.trim() !== '' ? { description: shortDescription(d.description) } : {};
}

/** A deferred tool demoted (the paper's documentation demotion): its name and short description, no schema;
 * each API wraps these two in its own tool form. */
export function demotedTool(d: ToolDef): { name: string; description?: string } {
  return { name: d.name, ...demotedDescription(d) };
}
