// Reading a model's reply as a list of tool names (the LLM router, the trace judge), strictly: the reply's
// first non-empty line, comma-separated, every item exactly a tool name of the registry (case aside,
// quotes and backticks around a name allowed), or the single word "none". Anything else is a failure the
// caller counts; a reply is never guessed at.

export type ParsedToolList = { ok: true; tools: string[] } | { ok: false; reason: string };

export function parseToolList(reply: string, registry: readonly string[]): ParsedToolList {
  const line = reply
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (line === undefined) return { ok: false, reason: 'the reply is empty' };
  const body = line.replace(/\.$/, '').trim();
  if (/^[`"']*none[`"'.]*$/i.test(body)) return { ok: true, tools: [] };
  const byLower = new Map(registry.map((name) => [name.toLowerCase(), name]));
  const tools: string[] = [];
  for (const raw of body.split(',')) {
    const item = raw.trim().replace(/^[`"']+|[`"']+$/g, '');
    if (item === '') return { ok: false, reason: `an empty item in "${clip(line)}"` };
    const name = byLower.get(item.toLowerCase());
    if (name === undefined) return { ok: false, reason: `"${clip(item)}" is not a tool of the registry` };
    if (!tools.includes(name)) tools.push(name);
  }
  return { ok: true, tools };
}

/** The tool listing both prompts show: one line per tool, `- Name: description`. */
export function toolListing(registry: readonly { name: string; description?: string | undefined }[]): string {
  return registry.map((t) => `- ${t.name}: ${(t.description ?? '').replace(/\s+/g, ' ').trim()}`).join('\n');
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
