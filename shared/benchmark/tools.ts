// The fifteen authored tools of the registry (paper B.1): seven chain tools and eight executable
// distractors, with descriptions and JSON-Schema parameters (they feed the menu and BM25).
import type { ToolDef } from '../trace/schema';

export const CHAIN_TOOLS = ['TableQuery', 'Calculator', 'SensorAPI', 'CalendarAPI', 'DocRetrieve', 'Translate', 'ExchangeRate'] as const;
export const DISTRACTOR_TOOLS = ['UnitConvert', 'TempConvert', 'CurrencyConvert', 'DurationCalc', 'Solver', 'GoogleSearch', 'Summarize', 'Barcode'] as const;
export type ChainTool = (typeof CHAIN_TOOLS)[number];
export type DistractorTool = (typeof DISTRACTOR_TOOLS)[number];
export type AuthoredTool = ChainTool | DistractorTool;
export const AUTHORED_TOOLS: readonly AuthoredTool[] = [...CHAIN_TOOLS, ...DISTRACTOR_TOOLS];

export function isAuthoredTool(name: string): name is AuthoredTool {
  return (AUTHORED_TOOLS as readonly string[]).includes(name);
}

function def(name: string, description: string, properties: Record<string, { type: string; description: string }>, required: string[]): ToolDef {
  return { name, description, parameters: { type: 'object', properties, required } };
}

const str = (description: string) => ({ type: 'string', description });
const num = (description: string) => ({ type: 'number', description });
const int = (description: string) => ({ type: 'integer', description });

export const AUTHORED_TOOL_DEFS: Readonly<Record<AuthoredTool, ToolDef>> = {
  TableQuery: def(
    'TableQuery',
    'Query the rows of a data table (inventory, stock ledger). Returns each row with its item, category, quantity and unit price.',
    {
      table: str('Name of the table, e.g. "inventory".'),
      where: str('Optional filter on a column, e.g. "category = office".'),
    },
    ['table'],
  ),
  Calculator: def(
    'Calculator',
    'Evaluate an arithmetic expression. The expression may use the variables returned by earlier tools (rows, readings, events, passages, rate) and functions such as sum and mean.',
    {
      expression: str('The expression to evaluate, e.g. "sum(r.qty * r.price for r in rows)".'),
    },
    ['expression'],
  ),
  SensorAPI: def(
    'SensorAPI',
    'Read the latest readings of a sensor by its id, with the measured quantity and unit.',
    {
      sensor_id: str('Sensor id, e.g. "TH-21".'),
      count: int('How many recent readings to return.'),
    },
    ['sensor_id'],
  ),
  CalendarAPI: def(
    'CalendarAPI',
    'List the events of a calendar day with their start and end times.',
    {
      date: str('The day, as YYYY-MM-DD.'),
    },
    ['date'],
  ),
  DocRetrieve: def(
    'DocRetrieve',
    'Retrieve up to two passages of the document store (catalogue, invoices, archive notes) that best match a query.',
    {
      query: str('What to look for.'),
    },
    ['query'],
  ),
  Translate: def(
    'Translate',
    'Translate a text into English, including figures written as words of the source language.',
    {
      text: str('The text to translate.'),
      source: str('The source language, if known.'),
    },
    ['text'],
  ),
  ExchangeRate: def(
    'ExchangeRate',
    'Look up the settlement exchange rate between two currencies.',
    {
      base: str('Currency converted from, e.g. "JPY".'),
      quote: str('Currency converted to, e.g. "EUR".'),
    },
    ['base', 'quote'],
  ),
  UnitConvert: def(
    'UnitConvert',
    'Convert a value between units of length, mass or volume (km, mi, kg, lb, l, gal).',
    {
      value: num('The value to convert.'),
      from_unit: str('Unit of the value.'),
      to_unit: str('Unit to convert to.'),
    },
    ['value', 'from_unit', 'to_unit'],
  ),
  TempConvert: def(
    'TempConvert',
    'Convert a temperature between Celsius, Fahrenheit and Kelvin.',
    {
      value: num('The temperature.'),
      from_scale: str('C, F or K.'),
      to_scale: str('C, F or K.'),
    },
    ['value', 'from_scale', 'to_scale'],
  ),
  CurrencyConvert: def(
    'CurrencyConvert',
    'Convert an amount of money between currencies at indicative market rates.',
    {
      amount: num('The amount to convert.'),
      from_currency: str('ISO code of the amount, e.g. "USD".'),
      to_currency: str('ISO code to convert to.'),
    },
    ['amount', 'from_currency', 'to_currency'],
  ),
  DurationCalc: def(
    'DurationCalc',
    'Compute the duration between two clock times or timestamps.',
    {
      start: str('Start time, e.g. "09:00".'),
      end: str('End time, e.g. "17:30".'),
    },
    ['start', 'end'],
  ),
  Solver: def(
    'Solver',
    'Solve an algebraic equation for x and show the solution.',
    {
      equation: str('The equation, e.g. "2x + 3 = 11".'),
    },
    ['equation'],
  ),
  GoogleSearch: def(
    'GoogleSearch',
    'Search the web and return the top result snippets for a query.',
    {
      query: str('The search query.'),
    },
    ['query'],
  ),
  Summarize: def(
    'Summarize',
    'Summarize a text in one short sentence.',
    {
      text: str('The text to summarize.'),
    },
    ['text'],
  ),
  Barcode: def(
    'Barcode',
    'Decode an EAN-13 barcode number and return the product it identifies.',
    {
      code: str('The digits of the barcode.'),
    },
    ['code'],
  ),
};
