import { describe, expect, it } from 'vitest';
import { expectConsistent, importFixture, pairs, shape, traces } from './helpers';

describe('GTA dataset', () => {
  const r = importFixture('gta/dataset.json');
  const [receipt, fruits] = traces(r);

  it('reads the keyed document, one record per entry, with its key as id and its line', () => {
    expect(r.format).toBe('gta');
    expect(r.errors).toEqual([]);
    expect(traces(r).map((t) => t.id)).toEqual(['gta-0', 'gta-1']);
    expect(r.traces[0]!.line).toBe(2);
    expect(r.traces[1]!.line).toBeGreaterThan(2);
    traces(r).forEach(expectConsistent);
  });

  it('turns ToolMeta into JSON Schema menus and takes the task type', () => {
    expect(receipt!.task).toBe('read_arith');
    expect(fruits!.task).toBe('count_arith');
    expect(fruits!.tools[0]).toEqual({
      name: 'CountGivenObject',
      description: 'The tool can count the number of a certain object in the image.',
      parameters: {
        type: 'object',
        properties: { image: { type: 'string' }, text: { type: 'string' }, bbox: { type: 'integer' } },
        required: ['image', 'text'],
      },
    });
    expect(receipt!.system).toBe('The related files are at `image/image_1.jpg`');
  });

  it('pairs tool messages by position (name checked), keeps thoughts as call text and the gold answer', () => {
    expect(pairs(receipt!)).toEqual([
      {
        turn: 0,
        call: 'OCR',
        args: { image: 'image/image_1.jpg' },
        content: '(12, 40, 210, 60) Coffee 3.50\n(12, 70, 210, 90) Bagel 2.25',
        pairing: 'position',
      },
      { turn: 0, call: 'Calculator', args: { expression: '3.50+2.25' }, content: '5.75', pairing: 'position' },
    ]);
    const first = receipt!.turns[0]!.steps[0]!;
    expect(first.kind === 'call' && first.text).toBe('Read the receipt.');
    expect(receipt!.turns[0]!.answer).toBe('5.75');
    expect(JSON.parse(receipt!.turns[0]!.gold!)).toEqual({ whitelist: [['5.75', '$5.75']], blacklist: null });
    expect(pairs(fruits!).map((p) => [p.call, p.content])).toEqual([
      ['CountGivenObject', '3'],
      ['CountGivenObject', '4'],
      ['Calculator', '7'],
    ]);
  });
});

describe('GTA harness output', () => {
  const r = importFixture('gta/predictions/qwen2.5-7b-instruct/gta_bench.json');
  const [single, rounds] = traces(r);

  it('takes the model from the predictions path', () => {
    expect(r.format).toBe('gta');
    expect(r.errors).toEqual([]);
    expect(single!.model).toBe('qwen2.5-7b-instruct');
    expect(single!.id).toBe('gta-qwen2.5-7b-instruct-0');
  });

  it('puts the error of the call step on its (empty) observation and keeps the retried call', () => {
    expect(shape(single!.turns[0]!.steps)).toEqual([
      'msg assistant',
      'call OCR',
      'obs OCR',
      'call Calculator',
      'obs Calculator!',
      'call Calculator',
      'obs Calculator',
    ]);
    expect(pairs(single!).slice(1)).toEqual([
      {
        turn: 0,
        call: 'Calculator',
        args: { expression: '3.50 + 2.25 +' },
        content: 'ACTION_ARG_PARSE_ERROR: invalid syntax (<string>, line 1)',
        pairing: 'position',
        isError: true,
      },
      { turn: 0, call: 'Calculator', args: { expression: '3.50 + 2.25' }, content: '5.75', pairing: 'position' },
    ]);
    expect(single!.turns[0]!).toMatchObject({ request: 'How much do the two items on this receipt cost together?', answer: '5.75', gold: '5.75' });
  });

  it('reads multi-round outputs as one turn per round; a round without final text takes the prediction', () => {
    expect(rounds!.turns.map((t) => [t.request, t.answer, t.gold])).toEqual([
      ['How many apples are in the image?', '3', '3'],
      ['And how many fruits in total, with the 4 oranges?', '7', '7'],
    ]);
    expect(pairs(rounds!).map((p) => [p.turn, p.call, p.content])).toEqual([
      [0, 'CountGivenObject', '3'],
      [1, 'Calculator', '7'],
    ]);
  });
});
