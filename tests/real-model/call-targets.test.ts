// BFCL turns that end in a call (paper B.2), scored by the default real model: the call is the frozen
// target, rendered in Qwen's own <tool_call> format through its chat template, and scored under every
// intervention; the turn with an empty final message is reported as not scored, with its reason.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LlamaModel } from 'node-llama-cpp';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { loadModel } from '../../electron/engine/llama/load';
import { createRenderer, type TraceRenderer } from '../../electron/engine/scoring/chat-template';
import { scoreTraces, type TraceResult } from '../../electron/engine/scoring/scorer';
import { toStoredScore } from '../../electron/engine/scoring/trace-scores';
import { importText } from '../../shared/importers';
import { fixturePath } from '../shared/importers/helpers';

const FILE = 'bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_long_context_result.json';

let model: LlamaModel;
let renderer: TraceRenderer;
const path = pulledDefaultModel();

describeRequiring('real-model', 'BFCL call-valued final turns on the default real model', () => {
  beforeAll(async () => {
    ({ model } = await loadModel(path!, { gpu: 'cpu' }));
    renderer = createRenderer(model);
  }, 300_000);
  afterAll(async () => {
    await model?.dispose();
  });

  it('scores the turns whose final message is a call, as the serialized <tool_call>, an empty closing step included (its call is the target)', async () => {
    const imported = importText(readFileSync(fixturePath(FILE), 'utf8'), { file: FILE });
    const trace = imported.traces[0]!.trace;
    // Turn 2 ends in an empty closing step after its pwd call: the call is its frozen target (paper B.2).
    expect(trace.turns.map((t) => t.target ?? 'text')).toEqual(['call', 'call', 'call']);
    const results: TraceResult[] = [];
    await scoreTraces(model, renderer, [trace], { mode: 'optimized', intervention: 'evidence', span: 'answer' }, (r) => void results.push(r));
    const { plan, logprobs } = results[0]!;
    expect(plan.turns.map((t) => t.turn)).toEqual([0, 1, 2]);
    expect(plan.unscored ?? []).toEqual([]);
    const scored = (turn: number) => {
      const b = plan.turns.find((t) => t.turn === turn)!.base;
      return model.detokenize(b.tokens.slice(b.start, b.end), true);
    };
    expect(scored(0)).toBe('<tool_call>\n{"name": "cat", "arguments": {"file_name": "log.txt"}}\n</tool_call>');
    expect(scored(1)).toBe(
      '<tool_call>\n{"name": "mv", "arguments": {"source": "log.txt", "destination": "archive"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "wc", "arguments": {"file_name": "archive/log.txt", "mode": "l"}}\n</tool_call>',
    );
    const row = toStoredScore(plan, logprobs, {
      key: 'k',
      run: 'r',
      traceHash: 'h',
      model: 'm',
      modelName: 'qwen',
      intervention: 'evidence',
      span: 'answer',
      piece: (t) => model.detokenize([t], true),
    });
    // ls has evidence before every target; cat (turn 0's target) and cd before turn 1's and 2's; mv and wc (turn 1's
    // calls) only before turn 2's (pwd).
    expect(Object.keys(row.scores).sort()).toEqual(['cat', 'cd', 'ls', 'mv', 'wc']);
    for (const v of Object.values(row.scores)) expect(Number.isFinite(v)).toBe(true);
    expect(row.turns!.map((t) => Object.keys(t.removed).sort())).toEqual([['ls'], ['cat', 'cd', 'ls'], ['cat', 'cd', 'ls', 'mv', 'wc']]);
    expect(row.unscoredTurns ?? []).toEqual([]);
    // Turn 2 ends in an empty closing step after its call: the call (pwd) is what is scored, not the empty step.
    expect(scored(2)).toBe('<tool_call>\n{"name": "pwd", "arguments": {}}\n</tool_call>');
    console.log(`BFCL call targets: I = ${JSON.stringify(row.scores)}`);
  }, 900_000);
});
