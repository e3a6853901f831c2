// compute_only (Calculator optional) and no_tool: the tool-optional and tool-free controls.
import type { Family } from '../family';
import { formatNumber } from '../format';

const FRUITS = ['apples', 'pears', 'plums', 'figs', 'cherries', 'grapes', 'lemons', 'mangoes', 'peaches', 'kiwis'];

export const computeOnly: Family = {
  name: 'compute_only',
  chainText: 'Calculator (optional)',
  computation: 'tool-optional control',
  chainTools: ['Calculator'],
  instantiate(_scene, rng) {
    const [a, b, c] = [rng.int(12, 99), rng.int(12, 99), rng.int(10, 999)];
    const form = rng.int(0, 2);
    const [request, goldValue] =
      form === 0
        ? [`Compute ${a} × ${b} + ${c}.`, a * b + c]
        : form === 1
          ? [`What is (${a} + ${b}) × ${c}?`, (a + b) * c]
          : [`What is ${a} × ${b} − ${c}?`, a * b - c];
    return { request, goldValue, chain: [{ tool: 'Calculator', needs: [], output: formatNumber(goldValue) }] };
  },
};

export const noTool: Family = {
  name: 'no_tool',
  chainText: 'none',
  computation: 'tool-free control',
  chainTools: [],
  instantiate(_scene, rng) {
    if (rng.next() < 0.5) {
      const a = rng.int(100, 999);
      let b = rng.int(100, 999);
      if (b === a) b = a === 999 ? 998 : a + 1;
      return { request: `Which is larger, ${a} or ${b}? Reply with the larger number.`, goldValue: Math.max(a, b), chain: [] };
    }
    const list = rng.sample(FRUITS, rng.int(3, 7));
    return { request: `How many items are in this list: ${list.join(', ')}? Reply with a number.`, goldValue: list.length, chain: [] };
  },
};
