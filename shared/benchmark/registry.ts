// The registry S: the fifteen authored tools, grown with seeded synthetic distractors (REGISTRY_SIZES: 15 → 240;
// any size up to MAX_REGISTRY works, a larger registry extending a smaller one).
// Menus and tool lines use one canonical order: tool names in code-unit order, which every trace can
// rebuild from its own menu.
import type { ToolDef } from '../trace/schema';
import { AUTHORED_TOOL_DEFS, AUTHORED_TOOLS, isAuthoredTool } from './tools';
import { isSyntheticTool, MAX_SYNTHETIC, syntheticNames, syntheticToolDef } from './synthetic';

export const REGISTRY_SIZES = [15, 30, 60, 120, 240] as const;
export const AUTHORED_COUNT = AUTHORED_TOOLS.length;
export const MAX_REGISTRY = AUTHORED_COUNT + MAX_SYNTHETIC;

/** Tool names of a registry of `size` tools, in canonical order. */
export function registryNames(seed: string, size: number): string[] {
  if (!Number.isInteger(size) || size < AUTHORED_COUNT || size > MAX_REGISTRY) {
    throw new RangeError(
      `a benchmark registry has between ${AUTHORED_COUNT} and ${MAX_REGISTRY} tools (usually one of ${REGISTRY_SIZES.join(', ')}), got ${size}`,
    );
  }
  return canonicalOrder([...AUTHORED_TOOLS, ...syntheticNames(seed, size - AUTHORED_COUNT)]);
}

export function registryDefs(seed: string, size: number): ToolDef[] {
  return registryNames(seed, size).map(benchToolDef);
}

export function benchToolDef(name: string): ToolDef {
  if (isAuthoredTool(name)) return AUTHORED_TOOL_DEFS[name];
  if (isSyntheticTool(name)) return syntheticToolDef(name);
  throw new RangeError(`"${name}" is not a tool of the built-in benchmark`);
}

export function isBenchTool(name: string): boolean {
  return isAuthoredTool(name) || isSyntheticTool(name);
}

/** The canonical set order (keys, comparisons, the registry listing); duplicates dropped. */
export function canonicalOrder(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * How a served menu and its tool lines are listed to the model. `dependency` (projects made from
 * 2026-12): a tool is listed after every tool whose output it may consume (the Calculator after the
 * tables, readings, events, passages and rates it computes on; Translate after DocRetrieve), otherwise
 * in code-unit order. `code-unit`: plain code-unit order, as earlier projects were served, which put
 * the Calculator's result before the outputs it was computed from.
 */
export type LineOrder = 'dependency' | 'code-unit';

/** Which tools' outputs a tool may consume (the union over every family's chain). */
const CONSUMES: Readonly<Record<string, readonly string[]>> = {
  Calculator: ['CalendarAPI', 'DocRetrieve', 'ExchangeRate', 'SensorAPI', 'TableQuery'],
  Translate: ['DocRetrieve'],
};

/** Menus and tool lines in the order the model reads them; duplicates dropped. */
export function presentationOrder(names: Iterable<string>, order: LineOrder): string[] {
  const sorted = canonicalOrder(names);
  if (order === 'code-unit') return sorted;
  // Kahn's algorithm with code-unit order among the tools that are ready.
  const present = new Set(sorted);
  const placed = new Set<string>();
  const out: string[] = [];
  while (out.length < sorted.length) {
    const next = sorted.find((name) => !placed.has(name) && (CONSUMES[name] ?? []).every((dep) => !present.has(dep) || placed.has(dep)))!;
    placed.add(next);
    out.push(next);
  }
  return out;
}
