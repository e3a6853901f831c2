// TTO† (paper §4 "Baselines", B.1): starts from the best single tool on fitting accuracy and adds the tool
// with the largest gain while fitting accuracy strictly increases. Label-using: it grades candidate menus
// against the fitting requests' gold answers. Ties go to the first tool by name.
import { byName, FitMeasure, fitAccuracyText } from '../fit-search';
import { LABELLED_SEARCH, type SelectionMethod } from '../method';

export const tto: SelectionMethod<'tto'> = {
  id: 'tto',
  label: 'TTO†',
  definition:
    'greedy forward search by fitting accuracy: the best single tool, then the tool with the largest gain while accuracy strictly increases (uses labels)',
  ...LABELLED_SEARCH,
  async select(ctx) {
    const measure = new FitMeasure(ctx);
    const names = ctx.registry.map((t) => t.name).sort(byName);
    if (names.length === 0) return { k: 0, menus: [[]], cost: measure.cost() };
    let space: string[] = [];
    let best = -1;
    let stop = '';
    for (;;) {
      let pick: string | undefined;
      let pickAccuracy = -1;
      for (const tool of names) {
        if (space.includes(tool)) continue;
        const a = await measure.accuracy([...space, tool]);
        if (a > pickAccuracy) [pick, pickAccuracy] = [tool, a];
      }
      if (pick === undefined) {
        stop = 'every tool added';
        break;
      }
      // The first step always takes the best single tool; later steps only a strict gain.
      if (space.length > 0 && pickAccuracy <= best) {
        stop = `no tool raises fitting accuracy above ${fitAccuracyText(best)}`;
        break;
      }
      space = [...space, pick];
      best = pickAccuracy;
    }
    return {
      k: space.length,
      menus: [space.sort(byName)],
      cost: measure.cost(),
      note: `${space.length} ${space.length === 1 ? 'tool' : 'tools'} at fitting accuracy ${fitAccuracyText(best)}; stopped: ${stop} (${measure.candidates} candidate menus)`,
    };
  },
};
