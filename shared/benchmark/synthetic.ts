// Synthetic distractors for larger registries (paper B.1): seeded names such as TaxCalc and
// PayrollForecast, each returning a plausible number derived from the scene. A synthetic tool's
// behaviour depends on its name alone, so any trace can be re-executed without the registry's seed.
import type { ToolDef } from '../trace/schema';
import { formatNumber } from './format';
import { hashString, rngFor } from '../lots/rng';
import type { Scene } from './scene';

const PREFIXES = [
  'Tax',
  'Payroll',
  'Freight',
  'Invoice',
  'Budget',
  'Loan',
  'Pension',
  'Energy',
  'Carbon',
  'Fleet',
  'Sales',
  'Margin',
  'Rent',
  'Insurance',
  'Shipping',
  'Customs',
  'Warranty',
  'Lease',
  'Depreciation',
  'Royalty',
  'Commission',
  'Overtime',
  'Vendor',
  'Supplier',
  'Stock',
  'Revenue',
  'Expense',
  'Audit',
  'Credit',
  'Grant',
  'Utility',
  'Travel',
  'Bonus',
  'Discount',
  'Refund',
  'Subscription',
  'Mileage',
  'Storage',
  'Water',
  'Traffic',
];
const SUFFIXES: Record<string, string> = {
  Calc: 'Calculate the {p} amount for a record.',
  Forecast: 'Forecast {p} figures for the next period.',
  Estimator: 'Estimate the {p} cost of an order or project.',
  Index: 'Return the current {p} index for a region.',
  Score: 'Score a record by its {p} risk.',
  Lookup: 'Look up the {p} figure recorded for an account.',
  Planner: 'Plan the {p} schedule and return the planned total.',
  Checker: 'Check a record against {p} rules and return the adjusted amount.',
  Ratio: 'Compute the {p} ratio of an account.',
  Tracker: 'Track {p} over time and return the latest value.',
  Analyzer: 'Analyze {p} data and return the headline figure.',
  Optimizer: 'Optimize {p} allocation and return the optimal amount.',
  Projection: 'Project {p} totals for the coming quarter.',
  Summary: 'Summarize {p} activity as a single total.',
  Validator: 'Validate {p} entries and return the validated sum.',
  Monitor: 'Monitor {p} levels and return the current reading.',
  Quote: 'Quote a {p} price for a request.',
  Rate: 'Return the applicable {p} rate.',
  Report: 'Report the {p} balance of a period.',
  Simulator: 'Simulate {p} outcomes and return the expected value.',
};

/** Every possible synthetic name, in a fixed order (the seed only chooses which ones a registry uses). */
const ALL_SYNTHETIC = PREFIXES.flatMap((p) => Object.keys(SUFFIXES).map((s) => p + s));
export const MAX_SYNTHETIC = ALL_SYNTHETIC.length;

/** The first `count` synthetic names of the seed's order; a larger registry extends a smaller one. */
export function syntheticNames(seed: string, count: number): string[] {
  if (count > MAX_SYNTHETIC) throw new RangeError(`at most ${MAX_SYNTHETIC} synthetic distractors exist, asked for ${count}`);
  return rngFor(seed, 'synthetic-registry').shuffle(ALL_SYNTHETIC).slice(0, count);
}

export function isSyntheticTool(name: string): boolean {
  return splitName(name) !== undefined;
}

export function syntheticToolDef(name: string): ToolDef {
  const parts = splitName(name);
  if (!parts) throw new RangeError(`"${name}" is not a synthetic benchmark tool`);
  const [prefix, suffix] = parts;
  return {
    name,
    description: SUFFIXES[suffix]!.replace('{p}', prefix.toLowerCase()),
    parameters: {
      type: 'object',
      properties: {
        record_id: { type: 'string', description: 'The record, account or order to use.' },
        period: { type: 'string', description: 'Optional period, e.g. "2024-Q2".' },
      },
      required: ['record_id'],
    },
  };
}

/** A plausible number derived from the scene; which quantity and which factor follow from the name. */
export function runSyntheticTool(name: string, scene: Scene): string {
  const rng = rngFor('synthetic-behaviour', name);
  const factor = 0.05 + rng.next() * 2.95;
  const sources: Array<() => number> = [
    () => scene.table.rows.reduce((a, r) => a + r.qty, 0),
    () => scene.table.rows.reduce((a, r) => a + r.priceCents, 0) / 100,
    () => scene.sensor.tenths.reduce((a, t) => a + t, 0) / 50,
    () => Math.max(...scene.sensor.tenths) / 10,
    () => scene.calendar.events.length * 45,
    () => scene.products[0].priceCents / 100,
    () => scene.invoice.qty * 10,
    () => scene.fx[0]!.rate * 100,
  ];
  const source = sources[hashString(name) % sources.length]!;
  return formatNumber(source() * factor);
}

function splitName(name: string): [string, string] | undefined {
  for (const prefix of PREFIXES) {
    if (name.startsWith(prefix) && Object.hasOwn(SUFFIXES, name.slice(prefix.length))) return [prefix, name.slice(prefix.length)];
  }
  return undefined;
}
