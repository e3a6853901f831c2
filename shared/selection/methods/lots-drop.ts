// The deletion ablation (issue 39; the paper's E.4 reading of Table 19, "the ranking, not the size of the
// space, carries the gain"): LOTS's space with its top-ranked tool removed, beside the same space with one
// of its tools removed at random (seeded draws). If the ranking puts what the answers depend on first,
// removing the top tool costs more than removing any one tool. Reference rows: they pair with LOTS at its
// label-chosen K, one tool fewer. In a space of one tool both leave no tools (said in the note).
import { rngFor } from '../../lots/rng';
import { PER_TASK_BASELINE, type Selection, type SelectionContext, type SelectionMethod } from '../method';

/** LOTS's space at its K, in ranking order (the ranking's top K where the sweep measured it). */
function rankedSpace(ctx: SelectionContext): string[] {
  const ranked = ctx.ranking?.slice(0, ctx.k) ?? [];
  return ranked.length === ctx.space.length && ranked.every((t) => ctx.space.includes(t)) ? ranked : [...ctx.space];
}

const emptyNote = (space: readonly string[]) =>
  space.length === 1
    ? `LOTS's space holds one tool (${space[0]}): removing it leaves no tools`
    : space.length === 0
      ? "LOTS's space is empty: nothing to remove"
      : undefined;

/** A deletion row: `menus` of the ranked space, K one less, the note where nothing or one tool is left. */
function dropRow<Id extends string>(
  id: Id,
  label: string,
  definition: string,
  menus: (space: string[], ctx: SelectionContext) => string[][],
): SelectionMethod<Id> {
  return {
    id,
    label,
    definition,
    ...PER_TASK_BASELINE,
    reference: true,
    follows: 'space-less-one',
    async select(ctx): Promise<Selection> {
      const space = rankedSpace(ctx);
      const note = emptyNote(space);
      return { k: Math.max(0, space.length - 1), menus: menus(space, ctx), ...(note ? { note } : {}) };
    },
  };
}

export const lotsDropTop = dropRow(
  'lots-drop-top',
  'LOTS − top tool',
  "LOTS's space with its top-ranked tool removed (the deletion ablation; a reference, not a method)",
  (space) => [space.slice(1)],
);

export const lotsDropRandom = dropRow(
  'lots-drop-random',
  'LOTS − a random tool',
  "LOTS's space with one of its tools removed at random, several seeded draws (the deletion ablation's control)",
  (space, ctx) =>
    Array.from({ length: Math.max(1, ctx.draws) }, (_, d) => {
      if (space.length === 0) return [];
      const [dropped] = rngFor(ctx.seed, 'drop-random', ctx.task, space.length, d).sample(space, 1);
      return space.filter((t) => t !== dropped);
    }),
);
