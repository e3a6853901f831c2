import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BFCL_FUNC_DOC_FILES } from '../../../shared/importers';
import type { BfclJoin } from '../../../shared/importers';
import { removeEvidence, scoreableTools } from '../../../shared/trace/interventions';
import { targetCall } from '../../../shared/trace/target';
import { expectConsistent, fixturePath, importFixture, pairs, shape, traces } from './helpers';

const RESULT = 'bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_base_result.json';

function jsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(fixturePath(path), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function join(): BfclJoin {
  const dataset = new Map(jsonl('bfcl/BFCL_v4_multi_turn_base.json').map((e) => [e.id as string, e as { id: string }]));
  const functionDocs = new Map<string, unknown[]>();
  for (const [cls, file] of Object.entries(BFCL_FUNC_DOC_FILES)) {
    try {
      functionDocs.set(cls, jsonl(`bfcl/multi_turn_func_doc/${file}`));
    } catch {
      // not every class has a fixture
    }
  }
  return { dataset, functionDocs };
}

describe('BFCL multi-turn result files', () => {
  const r = importFixture(RESULT);
  const [base, prompting] = traces(r);

  it('detects the format, imports the traces and reports the failed inference', () => {
    expect(r.format).toBe('bfcl');
    expect(traces(r)).toHaveLength(2);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: RESULT, line: 3 });
    expect(r.errors[0]!.message).toMatch(/multi_turn_base_3.*Error during inference/);
    traces(r).forEach(expectConsistent);
  });

  it('makes one turn per user turn, each with its own frozen answer (the last assistant text)', () => {
    expect(base!.id).toBe('multi_turn_base_1');
    expect(base!.model).toBe('demo-model-FC');
    expect(base!.turns.map((t) => t.request)).toEqual([
      'I am alex. Check if the current directory is under my name and list all the visible and hidden contents in the current directory now, please.',
      "Go to workspace directory and move one of the 'log.txt' files into a new directory 'archive'.",
    ]);
    expect(base!.turns.map((t) => t.answer)).toEqual(['You are in /alex; it contains only workspace.', 'Moved log.txt into archive.']);
  });

  it('pairs the k-th tool output with the k-th decoded call of its step, flags execution errors, keeps the repeated call', () => {
    expect(pairs(base!)).toEqual([
      { turn: 0, call: 'ls', args: { a: true }, content: '{"current_directory_content": ["workspace"]}', pairing: 'position' },
      { turn: 0, call: 'pwd', args: {}, content: '{"current_working_directory": "/alex"}', pairing: 'position' },
      { turn: 1, call: 'cd', args: { folder: 'workspace' }, content: '{"current_working_directory": "workspace"}', pairing: 'position' },
      {
        turn: 1,
        call: 'mv',
        args: { source: 'log.txt', destination: 'archive' },
        content: "Error during execution: mv: cannot move 'log.txt': destination busy",
        pairing: 'position',
        isError: true,
      },
      { turn: 1, call: 'mv', args: { source: 'log.txt', destination: 'archive' }, content: '{"result": "log.txt moved to archive"}', pairing: 'position' },
    ]);
    expect(shape(base!.turns[0]!.steps)).toEqual(['call ls+pwd', 'obs ls', 'obs pwd']);
    const ids = base!.turns.flatMap((t) => t.steps.flatMap((s) => (s.kind === 'call' ? s.calls.map((c) => c.id) : [])));
    expect(ids).toEqual(['t0.s0.c0', 't0.s0.c1', 't1.s0.c0', 't1.s1.c0', 't1.s2.c0']);
  });

  it('labels the task with the API class and, without the dataset, infers the menu from the calls', () => {
    expect(base!.task).toBe('GorillaFileSystem');
    expect(base!.tools).toEqual([{ name: 'ls' }, { name: 'pwd' }, { name: 'cd' }, { name: 'mv' }]);
    expect(base!.meta?.menu).toMatch(/inferred/);
  });

  it('decodes prompting-mode calls from model_response_decoded', () => {
    expect(pairs(prompting!)).toEqual([
      { turn: 0, call: 'cat', args: { file_name: 'log.txt' }, content: '{"file_content": "boot ok"}', pairing: 'position' },
      { turn: 0, call: 'wc', args: { file_name: 'log.txt', mode: 'l' }, content: '{"count": 1, "type": "lines"}', pairing: 'position' },
    ]);
    expect(prompting!.turns[0]!.answer).toBe('The log has one line: boot ok.');
  });

  it('recovers the menu (minus excluded functions) and the primary class from the dataset and function docs', () => {
    const joined = traces(importFixture(RESULT, { bfcl: join() }));
    const t = joined[0]!;
    expect(t.task).toBe('GorillaFileSystem');
    expect(t.tools.map((x) => x.name)).toEqual(['ls', 'pwd', 'cd', 'mv', 'cat', 'wc', 'mean']);
    expect(t.tools.find((x) => x.name === 'ls')!.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean', description: 'Show hidden files and directories.', default: false } },
      required: [],
    });
    expect(t.tools.find((x) => x.name === 'mean')!.parameters).toEqual({
      type: 'object',
      properties: { numbers: { type: 'array', items: { type: 'number' }, description: 'List of numbers.' } },
      required: ['numbers'],
    });
    expect(t.meta?.menu).toBeUndefined();
  });

  it('explains why a dataset file alone is not a trace file', () => {
    const d = importFixture('bfcl/BFCL_v4_multi_turn_base.json');
    expect(d.format).toBe('bfcl');
    expect(d.traces).toHaveLength(0);
    expect(d.errors[0]!.message).toMatch(/dataset entry \(no model outputs\)/);
  });
});

describe('BFCL turns whose last assistant message is a call (paper B.2)', () => {
  const LONG = 'bfcl/result/demo-model-FC/multi_turn/BFCL_v4_multi_turn_long_context_result.json';
  const r = importFixture(LONG);
  const [t] = traces(r);

  it('keep the final call as the frozen target instead of an empty answer (an empty closing step is not the target: issue 38)', () => {
    expect(r.errors).toEqual([]);
    expectConsistent(t!);
    expect(t!.turns.map((x) => x.target ?? 'text')).toEqual(['call', 'call', 'call']);
    expect(t!.turns.map((x) => x.answer)).toEqual(['', '', '']);
    // The target is the last call step; its observations stay after it (context for later turns).
    expect(shape(t!.turns[0]!.steps)).toEqual(['call ls', 'obs ls', 'call cat', 'obs cat']);
    expect(targetCall(t!.turns[0]!)).toMatchObject({ index: 2, step: { calls: [{ name: 'cat', arguments: { file_name: 'log.txt' } }] } });
    expect(targetCall(t!.turns[1]!)!.step.calls.map((c) => c.name)).toEqual(['mv', 'wc']);
    expect(targetCall(t!.turns[2]!)!.step.calls.map((c) => c.name)).toEqual(['pwd']);
  });

  it('count the call-valued turns apart from the turns with nothing to score', () => {
    expect(r.stats.callTargetTurns).toBe(3);
    expect(r.stats.unansweredTurns).toBe(0);
  });

  it('leave the target out of the evidence of its own turn, and in the evidence of later turns', () => {
    expect(scoreableTools(t!, 0)).toEqual(['ls']);
    expect(scoreableTools(t!, 1)).toEqual(['cat', 'cd', 'ls']);
    // Removing cat for turn 1 removes turn 0's target call (a step of the earlier turn) but never turn 1's own target.
    const removed = removeEvidence(t!, 1, 'cat');
    expect(removed.removed).toEqual([
      { turn: 0, step: 2 },
      { turn: 0, step: 3 },
    ]);
    const own = removeEvidence(t!, 0, 'cat');
    expect(own.removed).toEqual([]);
    expect(own.trace.turns[0]!.steps).toEqual(t!.turns[0]!.steps);
  });
});
