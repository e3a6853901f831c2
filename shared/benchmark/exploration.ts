// Which menu a request of a task is served under during continual updates (paper B.3, D.4, D.5). The
// first batch sees the registry, or a random sample of C registry tools under a serving cap C. Later
// requests see the current space, and each is explored with probability ε: the current space plus a
// random sample of other registry tools — up to C in total under a cap; without one, up to the stated
// exploration size, else the whole registry (the Figure 3 stream explores with ε = 0.25 and no cap).
// Exploration is the only way a tool outside the space gets evidence. A space larger than the menu
// size is served in full.
import type { Rng } from '../lots/rng';

export interface MenuChoiceOptions {
  firstBatch: boolean;
  space: readonly string[];
  registry: readonly string[];
  /** Serving cap C; absent: the registry can be served in full. */
  cap?: number;
  epsilon: number;
  /** Menu size of an explored request without a cap; absent: the registry's size. Ignored under a cap. */
  exploreSize?: number;
  rng: Rng;
}

export interface MenuChoice {
  menu: string[];
  explored: boolean;
}

export function chooseServingMenu(options: MenuChoiceOptions): MenuChoice {
  const { registry, space, cap, rng } = options;
  const capped = cap !== undefined && cap < registry.length;
  if (options.firstBatch) return { menu: capped ? rng.sample(registry, cap) : [...registry], explored: false };
  if (!(options.epsilon > 0 && rng.next() < options.epsilon)) return { menu: [...space], explored: false };
  const size = capped ? cap : Math.min(registry.length, options.exploreSize ?? registry.length);
  const inSpace = new Set(space);
  const others = registry.filter((t) => !inSpace.has(t));
  return { menu: [...space, ...rng.sample(others, Math.max(0, size - space.length))], explored: true };
}
