// Single-step traces whose answer line is always TableQuery's: one task whose right top-1 is known, so
// on the evidence-copy model the ranking and the faithfulness check have a ground truth.
import { singleStepTraces } from '../../electron/engine/scoring/synthetic-traces';
import type { Trace } from '../../shared/trace/schema';

export function copyTraces(count: number, tools: number, seed: number, task = 'copy'): Trace[] {
  return singleStepTraces({ count, tools, seed, task }).map((t) => {
    const step = t.turns[0]!.steps[0]!;
    if (step.kind !== 'lines') throw new Error('expected a lines step');
    const answerTool = (t.meta!.synthetic as { answerTool: string }).answerTool;
    const from = step.lines.findIndex((l) => l.tool === answerTool);
    const outputs = step.lines.map((l) => l.output);
    [outputs[0], outputs[from]] = [outputs[from]!, outputs[0]!];
    return {
      ...t,
      turns: [{ ...t.turns[0]!, steps: [{ kind: 'lines', lines: step.lines.map((l, i) => ({ ...l, output: outputs[i]! })) }] }],
      meta: { synthetic: { answerTool: 'TableQuery' } },
    };
  });
}
