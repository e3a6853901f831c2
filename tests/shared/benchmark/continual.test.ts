import { describe, expect, it } from 'vitest';
import { runContinualUpdates, type ServeRequest } from '../../../shared/benchmark/continual';
import { chooseServingMenu } from '../../../shared/benchmark/exploration';
import { Rng } from '../../../shared/lots/rng';
import type { ScoreRow } from '../../../shared/project/scores';

const registry = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

describe('serving menus under a cap', () => {
  it('first batch: the registry, or a random C-sample under a cap', () => {
    expect(chooseServingMenu({ firstBatch: true, space: [], registry, epsilon: 0.5, rng: new Rng(1) }).menu).toEqual(registry);
    const capped = chooseServingMenu({ firstBatch: true, space: [], registry, cap: 3, epsilon: 0.5, rng: new Rng(1) });
    expect(capped.menu).toHaveLength(3);
    expect(new Set(capped.menu).size).toBe(3);
  });

  it('later, without a cap: the space, explored with probability ε: the space plus the rest of the registry, or up to a stated size', () => {
    expect(chooseServingMenu({ firstBatch: false, space: ['A'], registry, epsilon: 0, rng: new Rng(1) })).toEqual({ menu: ['A'], explored: false });
    const all = chooseServingMenu({ firstBatch: false, space: ['C', 'A'], registry, epsilon: 1, rng: new Rng(1) });
    expect(all.explored).toBe(true);
    expect(all.menu.slice(0, 2)).toEqual(['C', 'A']);
    expect([...all.menu].sort()).toEqual(registry);
    const sized = chooseServingMenu({ firstBatch: false, space: ['C', 'A'], registry, epsilon: 1, exploreSize: 4, rng: new Rng(1) });
    expect(sized.menu).toHaveLength(4);
    expect(new Set(sized.menu).size).toBe(4);
    expect(sized.menu.slice(0, 2)).toEqual(['C', 'A']);
    let explored = 0;
    const rng = new Rng(3);
    for (let i = 0; i < 400; i++) if (chooseServingMenu({ firstBatch: false, space: ['A'], registry, epsilon: 0.25, rng }).explored) explored++;
    expect(explored).toBeGreaterThan(60);
    expect(explored).toBeLessThan(140);
  });

  it('later, under a cap: explored with probability ε up to C tools', () => {
    let explored = 0;
    const rng = new Rng(7);
    for (let i = 0; i < 400; i++) {
      const c = chooseServingMenu({ firstBatch: false, space: ['A', 'B'], registry, cap: 5, epsilon: 0.25, rng });
      if (c.explored) {
        explored++;
        expect(c.menu.slice(0, 2)).toEqual(['A', 'B']);
        expect(c.menu).toHaveLength(5);
        expect(new Set(c.menu).size).toBe(5);
      } else expect(c.menu).toEqual(['A', 'B']);
    }
    expect(explored).toBeGreaterThan(60);
    expect(explored).toBeLessThan(140);
  });
});

describe('continual updates', () => {
  // The "truth": C and E matter for this task; a tool gets evidence only when it is served.
  const serve = async (batch: ServeRequest<number>[]) => batch.map((b) => b.menu);
  const score = async (menus: string[][]): Promise<ScoreRow[]> =>
    menus.map((menu, i) => ({
      trace: `r${i}`,
      task: 't',
      exposed: menu,
      scores: Object.fromEntries(menu.map((tool) => [tool, tool === 'C' ? 1 : tool === 'E' ? 0.8 : -0.1])),
    }));

  it('updates running scores by EMA, serves later batches under the current space, records a version per batch', async () => {
    const versions: string[][] = [];
    const menus: string[][] = [];
    const updates = await runContinualUpdates({
      task: 't',
      registry,
      stream: [0, 1, 2, 3, 4, 5],
      batchSize: 2,
      k: 2,
      alpha: 0.5,
      seed: 's',
      serve: async (b) => {
        menus.push(...b.map((x) => x.menu));
        return serve(b);
      },
      score,
      onUpdate: (u) => void versions.push(u.space),
    });
    expect(updates).toHaveLength(3);
    expect(menus[0]).toEqual(registry);
    expect(menus[2]).toEqual(['C', 'E']);
    expect(versions).toEqual([
      ['C', 'E'],
      ['C', 'E'],
      ['C', 'E'],
    ]);
    expect(updates[0]!.runningScores).toEqual({ A: -0.1, B: -0.1, C: 1, D: -0.1, E: 0.8, F: -0.1, G: -0.1, H: -0.1 });
    // Unexposed tools keep their running score (no decay).
    expect(updates[2]!.runningScores['A']).toBe(-0.1);
  });

  it('under a cap, exploration is the only way a tool outside the space gets evidence', async () => {
    const updates = await runContinualUpdates({
      task: 't',
      registry,
      stream: Array.from({ length: 40 }, (_, i) => i),
      batchSize: 4,
      k: 2,
      alpha: 0.3,
      cap: 3,
      epsilon: 0.5,
      seed: 'cap',
      serve,
      score,
    });
    expect(updates[0]!.meanMenuSize).toBe(3);
    expect(updates.some((u) => u.explored > 0)).toBe(true);
    expect(updates.at(-1)!.space).toEqual(['C', 'E']);
    expect(Object.keys(updates.at(-1)!.runningScores).length).toBeGreaterThan(3);
  });

  it('is deterministic for a seed', async () => {
    const run = () =>
      runContinualUpdates({
        task: 't',
        registry,
        stream: [...Array(20).keys()],
        batchSize: 4,
        k: 2,
        alpha: 0.3,
        cap: 3,
        epsilon: 0.5,
        seed: 'd',
        serve,
        score,
      });
    expect(await run()).toEqual(await run());
  });
});
