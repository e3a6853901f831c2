// The Table 1 baselines that ask a model (router, trace judge, TTO†, Beam†, Dense, Tool2Vec), each against
// its definition, with a scripted model: the replies, the fitting accuracy of every menu and the
// embeddings are given, so what each method must pick can be worked out by hand.
import { describe, expect, it } from 'vitest';
import type { Generation, SelectionContext, ServedFit } from '../../../shared/selection/method';
import { selectSpaces } from '../../../shared/selection/select';
import { selectionMethod } from '../../../shared/selection/registry';
import { parseToolList } from '../../../shared/selection/tool-list';
import { parseQueries } from '../../../shared/selection/methods/tool2vec';

const TOOLS = ['Alpha', 'Beta', 'Gamma', 'Delta'];
const registry = TOOLS.map((name) => ({ name, description: `${name} does ${name.toLowerCase()} things` }));

function context(over: Partial<SelectionContext> = {}): SelectionContext {
  return {
    task: 't',
    registry,
    k: 2,
    space: ['Alpha', 'Beta'],
    requests: { fit: ['fit one', 'fit two'], eval: ['eval one', 'eval two', 'eval three'] },
    seed: '0',
    draws: 1,
    ...over,
  };
}

/** serveFit from a table of fitting accuracy by menu (its tools sorted, comma-joined; missing: 0). */
function servedBy(table: Record<string, number>, log: string[] = []): SelectionContext['serveFit'] {
  return async (menu): Promise<ServedFit> => {
    const key = [...menu].sort().join(',');
    log.push(key);
    const accuracy = table[key] ?? 0;
    return {
      accuracy,
      requests: ['fit one', 'fit two'].map((request, i) => ({
        request,
        lines: menu.map((tool) => ({ tool, output: `${tool} output ${i}` })),
        answer: `answer ${i}`,
        correct: i < accuracy * 2,
        promptTokens: 100 + menu.length,
      })),
    };
  };
}

function scripted(reply: (prompt: string) => string, prompts: string[] = []): SelectionContext['generate'] {
  return async (prompt): Promise<Generation> => {
    prompts.push(prompt);
    return { text: reply(prompt), promptTokens: prompt.length };
  };
}

describe('parseToolList (strict)', () => {
  it('reads comma-separated registry names, case aside, quotes allowed, "none" as the empty list', () => {
    expect(parseToolList('Alpha, beta', TOOLS)).toEqual({ ok: true, tools: ['Alpha', 'Beta'] });
    expect(parseToolList('\n`Gamma`, "Delta".\nmore text', TOOLS)).toEqual({ ok: true, tools: ['Gamma', 'Delta'] });
    expect(parseToolList('None', TOOLS)).toEqual({ ok: true, tools: [] });
    expect(parseToolList('"none".', TOOLS)).toEqual({ ok: true, tools: [] });
    expect(parseToolList('Alpha, Alpha', TOOLS)).toEqual({ ok: true, tools: ['Alpha'] });
  });
  it('refuses prose, unknown names and empty replies instead of guessing', () => {
    expect(parseToolList('The request needs Alpha', TOOLS)).toMatchObject({ ok: false, reason: expect.stringContaining('not a tool') });
    expect(parseToolList('Alpha, Omega', TOOLS)).toMatchObject({ ok: false, reason: '"Omega" is not a tool of the registry' });
    expect(parseToolList('  \n ', TOOLS)).toMatchObject({ ok: false, reason: 'the reply is empty' });
    expect(parseToolList('Alpha,,Beta', TOOLS)).toMatchObject({ ok: false });
  });
});

describe('LLM router', () => {
  it('serves each request exactly the tools the model names, counts unreadable replies and serves them nothing', async () => {
    const prompts: string[] = [];
    const replies: Record<string, string> = {
      'fit one': 'Alpha, Beta',
      'fit two': 'Beta, Alpha',
      'eval one': 'Gamma',
      'eval two': 'I think you need Alpha',
      'eval three': 'none',
    };
    const ctx = context({ generate: scripted((p) => replies[/Request: (.*)\n/.exec(p)![1]!]!, prompts) });
    const [space] = await selectSpaces(ctx, ['router']);
    // Every request sees the request and every tool's name and description.
    expect(prompts).toHaveLength(5);
    for (const p of prompts) for (const t of registry) expect(p).toContain(`- ${t.name}: ${t.description}`);
    const menuOf = (split: 'fit' | 'eval', i: number) => space!.menus[space!.perRequest![split][i]!];
    expect(menuOf('fit', 0)).toEqual(['Alpha', 'Beta']);
    expect(space!.perRequest!.fit[1]).toBe(space!.perRequest!.fit[0]); // the same set is one menu
    expect(menuOf('eval', 0)).toEqual(['Gamma']);
    expect(menuOf('eval', 1)).toEqual([]);
    expect(menuOf('eval', 2)).toEqual([]);
    expect(space!.cost).toMatchObject({ per: 'request', calls: 5, failures: 1, budget: 2 });
    expect(space!.cost!.promptTokens).toBe(prompts.reduce((a, p) => a + p.length, 0));
    expect(space!.note).toContain('1 of 5 replies were not a tool list');
  });
});

describe('TTO†', () => {
  it('starts from the best single tool and adds the largest gain while fitting accuracy strictly increases', async () => {
    const table = { Alpha: 0.5, Beta: 0.25, Gamma: 0.5, 'Alpha,Beta': 0.75, 'Alpha,Gamma': 0.5, 'Alpha,Beta,Gamma': 0.75, 'Alpha,Beta,Delta': 0.5 };
    const [space] = await selectSpaces(context({ serveFit: servedBy(table) }), ['tto']);
    // Alpha and Gamma tie at 0.5: the first by name. Then Beta (+0.25); then nothing gains strictly.
    expect(space!.menus).toEqual([['Alpha', 'Beta']]);
    expect(space!.k).toBe(2);
    expect(space!.cost).toMatchObject({ per: 'fit', candidates: 4 + 3 + 2, calls: (4 + 3 + 2) * 2 });
    expect(space!.note).toContain('no tool raises fitting accuracy above 0.75');
  });
  it('on a chain task (every single tool 0) still starts from one tool and grows while the pair gains', async () => {
    const [space] = await selectSpaces(context({ serveFit: servedBy({ 'Alpha,Gamma': 1 }) }), ['tto']);
    expect(space!.menus).toEqual([['Alpha', 'Gamma']]);
  });
});

describe('Beam search†', () => {
  it('keeps five candidates per size and finds a pair greedy search misses', async () => {
    const table = { Alpha: 0.5, Beta: 0.4, Gamma: 0.4, 'Alpha,Beta': 0.5, 'Alpha,Gamma': 0.5, 'Alpha,Delta': 0.5, 'Beta,Gamma': 0.9 };
    const [greedy] = await selectSpaces(context({ serveFit: servedBy(table) }), ['tto']);
    expect(greedy!.menus).toEqual([['Alpha']]);
    const log: string[] = [];
    const [space] = await selectSpaces(context({ serveFit: servedBy(table, log) }), ['beam']);
    expect(space!.menus).toEqual([['Beta', 'Gamma']]);
    expect(space!.note).toContain('no 3-tool space improves on 0.90');
    // The empty space, 4 singles, the 6 pairs (each measured once), the 4 triples.
    expect(log[0]).toBe('');
    expect(new Set(log).size).toBe(log.length);
    expect(space!.cost!.candidates).toBe(1 + 4 + 6 + 4);
  });
  it('stops at the empty space when no single tool improves on it (the chain families’ degenerate stop)', async () => {
    const [space] = await selectSpaces(context({ serveFit: servedBy({ 'Alpha,Gamma': 1 }) }), ['beam']);
    expect(space!.menus).toEqual([[]]);
    expect(space!.k).toBe(0);
    expect(space!.note).toContain('no 1-tool space improves on 0.00');
  });
});

describe('trace judge', () => {
  it('ranks tools by how many fitting traces the model says the answer used, top K, without the gold answer', async () => {
    const prompts: string[] = [];
    const replies = ['Gamma, Beta', 'Gamma'];
    let call = 0;
    const ctx = context({ k: 2, serveFit: servedBy({}), generate: scripted(() => replies[call++] ?? '', prompts) });
    const [space] = await selectSpaces(ctx, ['trace-judge']);
    expect(space!.menus).toEqual([['Gamma', 'Beta']]);
    // Each judge prompt holds the request, every tool's output under the full menu, and the answer.
    expect(prompts[0]).toContain('Request: fit one');
    for (const t of TOOLS) expect(prompts[0]).toContain(`${t}: ${t} output 0`);
    expect(prompts[0]).toContain('Answer: answer 0');
    expect(prompts[0]).not.toMatch(/gold|correct/i);
    expect(space!.cost).toMatchObject({ per: 'fit', calls: 2 + 2, failures: 0 });
  });
  it('a reply that is not a tool list votes for nothing and is counted', async () => {
    const replies = ['Beta', 'Beta and Delta'];
    let call = 0;
    const [space] = await selectSpaces(context({ k: 1, serveFit: servedBy({}), generate: scripted(() => replies[call++]!) }), ['trace-judge']);
    expect(space!.menus).toEqual([['Beta']]);
    expect(space!.cost!.failures).toBe(1);
    expect(space!.note).toContain('1 of 2 fitting traces judged');
  });
});

/** Embeddings on three axes: a text's vector is the unit sum of the axes its words name. */
function embedder(calls: string[][] = []): SelectionContext['embed'] {
  const axes: Record<string, number> = { alpha: 0, beta: 1, gamma: 2, delta: 2, money: 0, weather: 1 };
  return async (texts) => {
    calls.push([...texts]);
    return {
      vectors: texts.map((t) => {
        const v = new Float64Array(3);
        for (const w of t.toLowerCase().split(/\W+/)) if (w in axes) v[axes[w]!]! += 1;
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      }),
      tokens: texts.reduce((a, t) => a + t.split(' ').length, 0),
    };
  };
}

describe('Dense', () => {
  it('keeps the K tools whose descriptions embed closest to the fitting requests', async () => {
    const ctx = context({ k: 1, requests: { fit: ['beta please', 'more beta and alpha'], eval: [] }, embed: embedder() });
    const [space] = await selectSpaces(ctx, ['dense']);
    expect(space!.menus).toEqual([['Beta']]);
    expect(space!.cost).toMatchObject({ per: 'fit', calls: 4 + 2 });
  });
});

/** A Tool2Vec run's context: the model writes `queries[tool]` for each tool (recording its prompts), the
 * test embedder embeds them, one memo is shared by every selection made with it. */
function tool2vecContext(queries: Record<string, string>, generateFails?: () => boolean) {
  const prompts: string[] = [];
  const reply = scripted((p) => queries[/Here is a tool\. (\w+):/.exec(p)![1]!]!, prompts);
  const generate: SelectionContext['generate'] = (prompt, options) => {
    if (generateFails?.()) throw new Error('the model stopped');
    return reply!(prompt, options);
  };
  const memo = new Map<string, unknown>();
  const ctx = context({ k: 1, requests: { fit: ['weather please'], eval: [] }, generate, embed: embedder(), memo, embedder: 'test axes' });
  return { ctx, prompts };
}

const PLAIN_QUERIES: Record<string, string> = { Alpha: 'weather today', Beta: 'money now', Gamma: 'gamma', Delta: 'delta' };

describe('Tool2Vec', () => {
  it('averages the embeddings of the queries the model writes per tool, and a run computes them once', async () => {
    // The model writes "weather" queries for Alpha (axis 1) and "money" queries for Beta (axis 0).
    const { ctx, prompts } = tool2vecContext({ Alpha: '1. weather today\n2. weather tomorrow', Beta: '- money now\n- money later', Gamma: 'gamma', Delta: '' });
    const [space] = await selectSpaces(ctx, ['tool2vec']);
    expect(space!.menus).toEqual([['Alpha']]);
    expect(prompts).toHaveLength(4);
    expect(space!.note).toContain('no query written for Delta');
    const [again] = await selectSpaces({ ...ctx, requests: { fit: ['money money'], eval: [] } }, ['tool2vec']);
    expect(prompts).toHaveLength(4); // reused
    expect(again!.menus).toEqual([['Beta']]);
    expect(again!.note).toContain('reused');
  });
  it('charges the shared tool vectors to each method once, the fixed-K rows as if each ran alone', async () => {
    const { ctx, prompts } = tool2vecContext(PLAIN_QUERIES);
    const cost = async (id: string, task = ctx.task) => (await selectSpaces({ ...ctx, task }, [id]))[0]!.cost!;
    const first = await cost('tool2vec-k2');
    const vectorsTokens = first.promptTokens - 2; // "weather please": two tokens of the test embedder
    expect(vectorsTokens).toBeGreaterThan(0);
    // Tool2Vec K=4 and Tool2Vec at LOTS's K reuse the vectors (no model call) but pay for them, once each.
    for (const id of ['tool2vec-k4', 'tool2vec']) {
      const c = await cost(id);
      expect(c.promptTokens).toBe(first.promptTokens);
      expect(c.calls).toBe(first.calls);
    }
    expect(prompts).toHaveLength(4);
    // A later task of the same method pays only for its own requests.
    expect((await cost('tool2vec-k2', 'another task')).promptTokens).toBe(2);
  });
  it('a computation cut off halfway leaves the method unpaid: the attempt that finishes pays', async () => {
    let calls = 0;
    const { ctx } = tool2vecContext(PLAIN_QUERIES, () => ++calls === 3);
    await expect(selectSpaces(ctx, ['tool2vec-k2'])).rejects.toThrow('the model stopped');
    const finished = (await selectSpaces(ctx, ['tool2vec-k2']))[0]!.cost!;
    expect(finished.promptTokens).toBeGreaterThan(2); // the tool vectors, not only "weather please"
    expect((await selectSpaces({ ...ctx, task: 'another task' }, ['tool2vec-k2']))[0]!.cost!.promptTokens).toBe(2);
  });
  it('reads one query per line without list markers', () => {
    expect(parseQueries('1. a b\n\n- c\n* c\n"d"\n2) e', 3)).toEqual(['a b', 'c', 'd']);
  });
});

describe('selectSpaces', () => {
  it('says which capability of the serving model a method needs when it is missing', async () => {
    await expect(selectSpaces(context(), ['trace-judge'])).rejects.toThrow('selection method trace-judge needs the serving model (generate, serveFit)');
    expect(selectionMethod('tto')!.needsLabels).toBe(true);
    expect(selectionMethod('router')!.perRequest).toBe(true);
  });
});
