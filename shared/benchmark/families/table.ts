// table_total and table_filter: TableQuery → Calculator over six quantity × price rows.
import type { Family } from '../family';
import { formatNumber } from '../format';
import type { Scene, TableRow } from '../scene';
import { tableQueryOutput } from '../outputs';

const rowsValueCents = (rows: readonly TableRow[]) => rows.reduce((a, r) => a + r.qty * r.priceCents, 0);

export const tableTotal: Family = {
  name: 'table_total',
  chainText: 'TableQuery → Calculator',
  computation: 'sum of six quantity × price products',
  chainTools: ['TableQuery', 'Calculator'],
  instantiate(scene: Scene, rng) {
    const table = scene.table.name;
    const request = rng.pick([
      `What is the total value (quantity × unit price) of all items in the ${table} table?`,
      `Add up quantity times unit price over every row of the ${table} table. What is the total?`,
      `How much is the stock in the ${table} table worth in total, counting quantity × unit price for each row?`,
    ]);
    const goldValue = rowsValueCents(scene.table.rows) / 100;
    return {
      request,
      goldValue,
      chain: [
        { tool: 'TableQuery', needs: [], produces: 'rows', output: tableQueryOutput(scene) },
        { tool: 'Calculator', needs: ['rows'], output: formatNumber(goldValue) },
      ],
    };
  },
};

export const tableFilter: Family = {
  name: 'table_filter',
  chainText: 'TableQuery → Calculator',
  computation: 'the same sum over a filtered subset',
  chainTools: ['TableQuery', 'Calculator'],
  instantiate(scene: Scene, rng) {
    const table = scene.table.name;
    const categories = [...new Set(scene.table.rows.map((r) => r.category))].sort();
    const category = rng.pick(categories);
    const request = rng.pick([
      `How much should I budget to restock all the ${category} things listed in ${table}, as many of each at its price?`,
      `Restocking the ${category} goods of ${table}, same amounts at the listed prices: what would it cost?`,
      `What would it cost to buy every ${category} article in ${table} again, as many of each as listed?`,
    ]);
    const goldValue = rowsValueCents(scene.table.rows.filter((r) => r.category === category)) / 100;
    return {
      request,
      goldValue,
      chain: [
        { tool: 'TableQuery', needs: [], produces: 'rows', output: tableQueryOutput(scene) },
        { tool: 'Calculator', needs: ['rows'], output: formatNumber(goldValue) },
      ],
    };
  },
};
