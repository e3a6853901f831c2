// The CLI's flag parsing (node:util parseArgs, strict) and its helpers: the usage errors keep their words.
import { describe, expect, it } from 'vitest';
import { choice, parseArgs, type FlagSpec } from '../../electron/cli/args';

const spec: Record<string, FlagSpec> = {
  tau: { type: 'string', description: '' },
  task: { type: 'string', multi: true, description: '' },
  json: { type: 'boolean', description: '' },
  rule: { type: 'string', description: '', default: 'topk' },
};

describe('parseArgs', () => {
  it('reads values, lists, switches, defaults and positionals; a single dash starts a value, not a flag', () => {
    expect(parseArgs(['a.jsonl', '--tau', '-0.5', '--task', 'x,y', '--task=z', '--json', '--', '--not-a-flag'], spec)).toEqual({
      positionals: ['a.jsonl', '--not-a-flag'],
      flags: { tau: '-0.5', task: ['x', 'y', 'z'], json: true, rule: 'topk' },
    });
  });

  it('refuses unknown flags, missing values and values given to a switch, as usage errors', () => {
    expect(() => parseArgs(['--bogus'], spec)).toThrow(expect.objectContaining({ code: 'USAGE', message: 'unknown option --bogus' }));
    expect(() => parseArgs(['-q'], spec)).toThrow('unknown option -q');
    expect(() => parseArgs(['--tau'], spec)).toThrow('--tau needs a value');
    expect(() => parseArgs(['--tau', '--json'], spec)).toThrow('--tau needs a value');
    expect(() => parseArgs(['--json=1'], spec)).toThrow('--json takes no value');
  });
});

describe('choice', () => {
  const args = (rule?: string) => parseArgs(rule === undefined ? [] : ['--rule', rule], { rule: { type: 'string', description: '' } });
  it('takes one of the values, or says which ones it takes', () => {
    expect(choice(args('support'), 'rule', ['topk', 'support'])).toBe('support');
    expect(() => choice(args('nope'), 'rule', ['topk', 'support'])).toThrow('--rule must be one of topk, support, got "nope"');
    expect(() => choice(args(), 'rule', ['topk', 'support'])).toThrow('--rule is required');
    expect(choice(args(), 'rule', ['topk', 'support'], 'topk')).toBe('topk');
    expect(choice(args(), 'rule', ['topk', 'support'], undefined)).toBeUndefined();
  });
});
