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
        ? [`What is ${a} × ${b} + ${c}?`, a * b + c]
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
    const list = rng.sample(FRUITS, rng.int(3, 7)).join(', ');
    const request = rng.pick([
      `How many items are in this list: ${list}? Reply with a number.`,
      `Here is a list: ${list}. How many items does it have? Reply with a number.`,
    ]);
    return { request, goldValue: list.split(', ').length, chain: [] };
  },
};
