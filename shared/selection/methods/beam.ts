// Beam search† (paper §4 "Baselines", B.1): from the empty space, every beam grows by one tool; the five
// best candidates of each size by fitting accuracy are kept; the search stops when the best candidate of
// the next size does not strictly improve on the best so far, and serves that best. Label-using. On the
// benchmark's chain families every single tool scores zero on fitting requests (the answer needs two or
// three tools together), so no one-tool space beats the empty one and the search stops there — the
// degenerate stop the paper reports; the note says when it happens.
import { byName, canonicalKey, FitMeasure, fitAccuracyText } from '../fit-search';
import { LABELLED_SEARCH, type SelectionMethod } from '../method';

export const BEAM_WIDTH = 5;

export const beam: SelectionMethod<'beam'> = {
  id: 'beam',
  label: 'Beam†',
  definition: `beam search over tool sets by fitting accuracy, width ${BEAM_WIDTH}, from the empty space, stopping when the next size does not strictly improve (uses labels)`,
  ...LABELLED_SEARCH,
  async select(ctx) {
    const measure = new FitMeasure(ctx);
    const names = ctx.registry.map((t) => t.name).sort(byName);
    let best: { tools: string[]; accuracy: number } = { tools: [], accuracy: await measure.accuracy([]) };
    let beams: string[][] = [[]];
    let stop = 'every tool added';
    while (beams.length > 0 && beams[0]!.length < names.length) {
      const seen = new Set<string>();
      const candidates: { tools: string[]; key: string; accuracy: number }[] = [];
      for (const b of beams) {
        for (const tool of names) {
          if (b.includes(tool)) continue;
          const tools = [...b, tool].sort(byName);
          const key = canonicalKey(tools);
          if (seen.has(key)) continue;
          seen.add(key);
          candidates.push({ tools, key, accuracy: await measure.accuracy(tools) });
        }
      }
      if (candidates.length === 0) break;
      candidates.sort((x, y) => y.accuracy - x.accuracy || byName(x.key, y.key));
      const top = candidates[0]!;
      if (top.accuracy <= best.accuracy) {
        stop = `no ${top.tools.length}-tool space improves on ${fitAccuracyText(best.accuracy)}`;
        break;
      }
      best = { tools: top.tools, accuracy: top.accuracy };
      beams = candidates.slice(0, BEAM_WIDTH).map((c) => c.tools);
    }
    return {
      k: best.tools.length,
      menus: [best.tools],
      cost: measure.cost(),
      note: `${best.tools.length} ${best.tools.length === 1 ? 'tool' : 'tools'} at fitting accuracy ${fitAccuracyText(best.accuracy)}; stopped: ${stop} (${measure.candidates} candidate menus)`,
    };
  },
};
