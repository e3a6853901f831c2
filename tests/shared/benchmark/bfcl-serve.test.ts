// The pure parts of the BFCL serving loop: the menus of the arms (documentation demotion and pruning), the
// calls read out of generated text in the model's own tool-call format (and leniently outside it), and the
// per-arm summary with its paired comparison against keep-all.
import { describe, expect, it } from 'vitest';
import {
  bareJsonCalls,
  bfclArmMenu,
  emptyOutcome,
  jsonValueEnd,
  parseToolCalls,
  summarizeArms,
  type BfclRecordOutcome,
  type CallSyntax,
} from '../../../shared/benchmark/bfcl-serve';
import type { ToolDef } from '../../../shared/trace/schema';

// Qwen / Hermes, as node-llama-cpp's Qwen wrapper writes a call (its settings.functions.call as text).
const QWEN: CallSyntax = { prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ', suffix: '}\n</tool_call>' };
// A name-then-parameters format (Llama 3.1's `<function=name>{…}</function>`).
const NAMED: CallSyntax = { prefix: '<function=', paramsPrefix: '>', suffix: '</function>' };

const tools: ToolDef[] = [
  { name: 'cd', description: 'Change directory. Moves into the folder given.', parameters: { type: 'object', properties: { folder: { type: 'string' } } } },
  { name: 'ls', description: 'List the files of the current directory.', parameters: { type: 'object', properties: {} } },
  { name: 'mv', description: 'Move a file. The destination must exist.', parameters: { type: 'object', properties: { source: { type: 'string' } } } },
];

describe('bfclArmMenu', () => {
  it('keep-all offers every function of the record in full', () => {
    const m = bfclArmMenu(tools, 'all', 'demote');
    expect(m.tools).toEqual(tools);
    expect(m).toMatchObject({ pinned: ['cd', 'ls', 'mv'], deferred: [], hidden: [] });
  });

  it('demotion documents the space in full and the rest by name and first sentence, without parameters; every function stays on the menu', () => {
    const m = bfclArmMenu(tools, ['mv', 'cd', 'not-in-record'], 'demote');
    expect(m.pinned).toEqual(['cd', 'mv']);
    expect(m.deferred).toEqual(['ls']);
    expect(m.hidden).toEqual([]);
    expect(m.tools.map((t) => t.name)).toEqual(['cd', 'mv', 'ls']);
    expect(m.tools[0]).toEqual(tools[0]);
    expect(m.tools[2]).toEqual({ name: 'ls', description: 'List the files of the current directory.' });
  });

  it('a demoted BFCL function keeps its own sentence, not its class preamble', () => {
    const doc: ToolDef = {
      name: 'withdraw_funds',
      description:
        'This tool belongs to the trading system, which allows users to trade stocks, manage their account, and view stock information. Tool description: Withdraw funds from the account balance. More.',
      parameters: { type: 'object' },
    };
    expect(bfclArmMenu([doc], [], 'demote').tools).toEqual([{ name: 'withdraw_funds', description: 'Withdraw funds from the account balance.' }]);
  });

  it('pruning offers the space only and hides the rest', () => {
    const m = bfclArmMenu(tools, ['ls'], 'prune');
    expect(m.tools).toEqual([tools[1]]);
    expect(m).toMatchObject({ pinned: ['ls'], deferred: [], hidden: ['cd', 'mv'] });
  });

  it('an empty space demotes every function (no padding with unscored tools)', () => {
    const m = bfclArmMenu(tools, [], 'demote');
    expect(m.pinned).toEqual([]);
    expect(m.tools.every((t) => t.parameters === undefined)).toBe(true);
  });
});

describe('parseToolCalls', () => {
  it('reads the calls of a Qwen response, several of them, with free whitespace inside the JSON', () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "cd", "arguments": {"folder": "a \\"b\\" {c}"}}\n</tool_call>\n<tool_call>\n{ "name":"ls" ,\n "arguments": {} }\n</tool_call>';
    expect(parseToolCalls(text, QWEN)).toEqual({
      text: 'Let me look.',
      calls: [
        { name: 'cd', arguments: { folder: 'a "b" {c}' } },
        { name: 'ls', arguments: {} },
      ],
    });
  });

  it('a text answer has no calls', () => {
    expect(parseToolCalls('The folder is empty.', QWEN)).toEqual({ text: 'The folder is empty.', calls: [] });
  });

  it('a call that cannot be read makes the whole response a text answer, with the reason (the official handlers do not guess)', () => {
    const r = parseToolCalls('<tool_call>\n{"name": "cd", "arguments": {"folder": "x"\n</tool_call>', QWEN);
    expect(r.calls).toEqual([]);
    expect(r.undecodable).toMatch(/not closed/);
    expect(r.text).toContain('<tool_call>');
    expect(parseToolCalls('<tool_call>\n{"arguments": {}}\n</tool_call>', QWEN).undecodable).toMatch(/no "name"/);
    expect(parseToolCalls('<tool_call>\n{"name": "cd", "arguments": [1]}\n</tool_call>', QWEN).undecodable).toMatch(/not an object/);
  });

  it('reads a name-then-parameters format as its wrapper writes it', () => {
    expect(parseToolCalls('<function=cd>{"folder": "x"}</function><function=ls>{}</function>', NAMED)).toEqual({
      text: '',
      calls: [
        { name: 'cd', arguments: { folder: 'x' } },
        { name: 'ls', arguments: {} },
      ],
    });
  });

  it('JSON calls outside the markers are read only when lenient, and are marked so', () => {
    const fenced = 'Sure:\n```json\n{\n  "name": "cd",\n  "arguments": {"folder": "docs"}\n}\n```';
    expect(parseToolCalls(fenced, QWEN)).toEqual({ text: fenced, calls: [] });
    expect(parseToolCalls(fenced, QWEN, { lenient: true })).toEqual({ text: 'Sure:', calls: [{ name: 'cd', arguments: { folder: 'docs' } }], lenient: true });
    // A JSON object that is not a call is not one.
    expect(bareJsonCalls('The result was {"total": 3}.')).toBeNull();
    // Markers win over lenient reading.
    expect(parseToolCalls('<tool_call>\n{"name": "ls", "arguments": {}}\n</tool_call>', QWEN, { lenient: true }).lenient).toBeUndefined();
  });

  it('jsonValueEnd skips strings and escapes', () => {
    const t = ' {"a": "}\\"]", "b": [1, {"c": 2}]} tail';
    expect(t.slice(0, jsonValueEnd(t, 0))).toBe(' {"a": "}\\"]", "b": [1, {"c": 2}]}');
    expect(jsonValueEnd('{"a": 1', 0)).toBe(-1);
    expect(jsonValueEnd('x', 0)).toBe(-1);
  });
});

describe('summarizeArms', () => {
  const o = (arm: string, id: string, cls: string, valid: boolean, tokens: number): BfclRecordOutcome => ({
    ...emptyOutcome(arm, id, cls),
    valid,
    firstPromptTokens: tokens,
  });

  it('accuracy per arm and class, menu tokens, and the paired difference against keep-all on the shared records', () => {
    const outcomes = [
      o('keep-all', 'r1', 'A', true, 300),
      o('keep-all', 'r2', 'A', false, 300),
      o('keep-all', 'r3', 'B', false, 500),
      o('lots', 'r1', 'A', true, 100),
      o('lots', 'r2', 'A', true, 100),
      o('lots', 'r3', 'B', true, 200),
    ];
    const [keep, lots] = summarizeArms(outcomes, 'keep-all');
    expect(keep).toMatchObject({ arm: 'keep-all', records: 3, correct: 1, meanFirstPromptTokens: 1100 / 3 });
    expect(keep!.paired).toBeUndefined();
    expect(lots).toMatchObject({
      arm: 'lots',
      correct: 3,
      accuracy: 1,
      perClass: [
        { cls: 'A', records: 2, correct: 2 },
        { cls: 'B', records: 1, correct: 1 },
      ],
    });
    // Macro mean over the classes: A +0.5, B +1.0.
    expect(lots!.paired!.pooled.difference).toBeCloseTo(0.75, 12);
    expect(lots!.paired!.pooled.discordant).toEqual({ aOnly: 2, bOnly: 0 });
    // No turn counts recorded: no turn share.
    expect(lots!.turnShare).toBeUndefined();
  });

  it('the share of turns passed per arm, paired against keep-all on the records that have it', () => {
    const t = (arm: string, id: string, turns: number, passed: number): BfclRecordOutcome => ({
      ...o(arm, id, 'A', passed === turns, 10),
      turns,
      turnsPassed: passed,
    });
    const [keep, lots] = summarizeArms([t('keep-all', 'r1', 4, 1), t('keep-all', 'r2', 2, 0), t('lots', 'r1', 4, 2), t('lots', 'r2', 2, 2)], 'keep-all');
    expect(keep!.turnShare).toBeCloseTo((0.25 + 0) / 2, 12);
    expect(lots!.turnShare).toBeCloseTo((0.5 + 1) / 2, 12);
    expect(lots!.pairedTurns!.pooled.difference).toBeCloseTo((0.25 + 1) / 2, 12);
  });
});
