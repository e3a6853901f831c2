// Tools served outside a request's chain run once with generic arguments taken from the request and
// the scene (paper B.2). Distractors are executable: on an unsuitable input each still applies its own
// transformation and answers in its usual format.
import { docRetrieveOutput, exchangeRateOutput, retrievePassages, translateOutput } from './outputs';
import type { Scene } from './scene';
import { isSyntheticTool, runSyntheticTool } from './synthetic';
import type { AuthoredTool } from './tools';
import type { BenchVariant } from './variant';

const GENERIC: Record<AuthoredTool, (scene: Scene, request: string) => string> = {
  // Data tools called with generic arguments find nothing of their own kind.
  TableQuery: (scene) => `no table named "default" (tables: ${scene.table.name})`,
  Calculator: () => '0',
  SensorAPI: () => 'no sensor with id "default"',
  CalendarAPI: () => 'no events on "today" (give a date as YYYY-MM-DD)',
  // Text tools run on the request itself.
  DocRetrieve: (scene, request) => docRetrieveOutput(retrievePassages(scene.passages, request)),
  Translate: (scene, request) => translateOutput(request, scene.cipher),
  GoogleSearch: (_scene, request) => {
    const topic = request.split(/\s+/).slice(0, 6).join(' ');
    return `3 results for "${topic}": (1) Wikipedia — general background on the topic. (2) A forum thread with related questions. (3) A news article from last year.`;
  },
  Summarize: (_scene, request) => {
    const words = request.split(/\s+/);
    return `Summary: ${words.slice(0, 10).join(' ')}${words.length > 10 ? ' …' : ''}`;
  },
  Barcode: (_scene, request) => {
    const code = /\b\d{13}\b/.exec(request)?.[0];
    return code ? `EAN-13 ${code}: unknown product` : 'no barcode found in the input';
  },
  // Converters and solvers run on their default arguments (the ones a schema example would give).
  ExchangeRate: (scene) => exchangeRateOutput(scene.fx.find((r) => r.base === 'USD' && r.quote === 'EUR') ?? scene.fx[0]!),
  UnitConvert: () => '1 km = 0.62 mi',
  TempConvert: () => '0 °C = 32 °F',
  CurrencyConvert: () => '1 USD = 0.92 EUR (indicative)',
  DurationCalc: () => 'start of day to end of day = 8 h',
  Solver: () => 'x = 1 (solved x + 1 = 2)',
};

/**
 * The number-free variant's outputs: what each tool says when it has no usable argument, without a
 * digit (the request or passages a text tool echoes lose theirs too: NUMBER_FREE_MARK stands in).
 */
const NUMBER_FREE: Partial<Record<AuthoredTool, (scene: Scene, request: string) => string>> = {
  Calculator: () => 'no expression given',
  GoogleSearch: (_scene, request) =>
    `results for "${request.split(/\s+/).slice(0, 6).join(' ')}": Wikipedia — general background on the topic; a forum thread with related questions; a news article from last year.`,
  Barcode: () => 'no barcode found in the input',
  ExchangeRate: () => 'give a base and a quote currency (e.g. USD and EUR)',
  UnitConvert: () => 'give a value with its unit and a unit to convert to (km, mi, kg, lb, l, gal)',
  TempConvert: () => 'give a temperature and its scale (C, F or K)',
  CurrencyConvert: () => 'give an amount and two currency codes (e.g. USD and EUR)',
  DurationCalc: () => 'give a start and an end time',
  Solver: () => 'no equation given (write one such as a linear equation in x)',
};

export const NUMBER_FREE_MARK = '…';

/** Every run of digits (with its decimal point, comma or colon) replaced by NUMBER_FREE_MARK. */
export function withoutNumbers(text: string): string {
  return text.replace(/\d+(?:[.,:]\d+)*/g, NUMBER_FREE_MARK);
}

export function genericOutput(tool: string, scene: Scene, request: string, variant: BenchVariant = 'faithful'): string {
  if (variant === 'number-free') {
    if (isSyntheticTool(tool)) return 'no record given (pass a record_id)';
    const own = Object.hasOwn(NUMBER_FREE, tool) ? NUMBER_FREE[tool as AuthoredTool] : undefined;
    return withoutNumbers(own ? own(scene, request) : genericOutput(tool, scene, request));
  }
  if (Object.hasOwn(GENERIC, tool)) return GENERIC[tool as AuthoredTool](scene, request);
  if (isSyntheticTool(tool)) return runSyntheticTool(tool, scene);
  throw new RangeError(`"${tool}" is not a tool of the built-in benchmark`);
}
