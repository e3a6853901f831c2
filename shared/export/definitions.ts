// Tool definitions for an exported space come from the menus recorded in the traces.
import { ExpectedError } from '../base/errors';
import type { ToolDef, Trace } from '../trace/schema';

/** Name → definition; a name defined on several menus takes the latest one seen (traces in import order). */
export function collectToolDefinitions(traces: Iterable<Pick<Trace, 'tools'>>): Map<string, ToolDef> {
  const defs = new Map<string, ToolDef>();
  for (const trace of traces) for (const def of trace.tools) defs.set(def.name, def);
  return defs;
}

function missingDefinitions(tools: readonly string[]): ExpectedError {
  return new ExpectedError(
    'MISSING_TOOL_DEFINITION',
    `no definition for ${tools.map((t) => `"${t}"`).join(', ')} on any trace menu; ` +
      `import traces whose "tools" list ${tools.length === 1 ? 'defines it' : 'defines them'}, or export with --format names/mcp/space, which need no definitions`,
  );
}

/** The definitions of the kept tools, in space order; throws naming every tool that has none. */
export function definitionsFor(tools: readonly string[], defs: ReadonlyMap<string, ToolDef>): ToolDef[] {
  const missing = tools.filter((t) => !defs.has(t));
  if (missing.length > 0) throw missingDefinitions(missing);
  return tools.map((t) => defs.get(t)!);
}
