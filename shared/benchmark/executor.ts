// The single-step protocol (paper B.2): every served tool runs once per request; the family's chain
// runs in dependency order and the other served tools with generic arguments; one line per served tool,
// `<Tool>: <output>`, in presentation order (registry.ts), truncated to 1,500 characters. Deterministic given the request
// and the menu. Serving without a tool is re-execution without it: a downstream tool that needed its
// output returns a NameError, and outputs unrelated to it stay as they were. The instance's variant
// (variant.ts) decides the distractors' outputs (number-free) and the answer line's place (answer-last).
import type { LinesStep } from '../trace/schema';
import { genericOutput } from './generic';
import { truncateOutput } from './format';
import type { BenchInstance } from './instance';
import { presentationOrder, type LineOrder } from './registry';

export type ToolLine = LinesStep['lines'][number];

export function executeMenu(instance: BenchInstance, served: readonly string[], order: LineOrder = 'dependency'): ToolLine[] {
  const menu = new Set(served);
  const bound = new Set<string>();
  const outputs = new Map<string, string>();
  for (const step of instance.chain) {
    if (!menu.has(step.tool)) continue;
    const missing = step.needs.find((v) => !bound.has(v));
    if (missing !== undefined) {
      outputs.set(step.tool, `NameError: name '${missing}' is not defined`);
      continue;
    }
    outputs.set(step.tool, step.output);
    if (step.produces) bound.add(step.produces);
  }
  const lines = presentationOrder(menu, order).map((tool) => ({
    tool,
    output: truncateOutput(outputs.get(tool) ?? genericOutput(tool, instance.scene, instance.request, instance.variant)),
  }));
  if (instance.variant === 'answer-last') {
    // The chain's last tool prints the answer (a NameError when a link is missing): its line goes last.
    const last = instance.chain.at(-1)?.tool;
    const at = lines.findIndex((l) => l.tool === last);
    if (at >= 0) lines.push(...lines.splice(at, 1));
  }
  return lines;
}

/** `Tool: output` lines as a model reads them. */
export function renderToolLines(lines: readonly ToolLine[]): string {
  return lines.map((l) => `${l.tool}: ${l.output}`).join('\n');
}
