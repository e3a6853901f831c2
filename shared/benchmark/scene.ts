// Hidden scenes (paper B.1): the data only the tools can see. Every request gets a whole scene (table,
// sensor, calendar, documents, exchange rates, cipher), so a tool served with generic arguments on a
// request of another family still has something real to return.
import type { Rng } from '../lots/rng';

export interface TableRow {
  item: string;
  category: string;
  qty: number;
  /** Unit price in cents, so sums are exact. */
  priceCents: number;
}

export interface SensorSeries {
  id: string;
  quantity: SensorQuantity;
  /** Readings in tenths of the unit (21.4 °C is 214), newest last. */
  tenths: number[];
}

export interface CalendarEvent {
  title: string;
  start: string;
  end: string;
}

export interface Product {
  name: string;
  priceCents: number;
}

export interface Invoice {
  id: string;
  material: string;
  qty: number;
  priceCents: number;
  currency: string;
}

export interface Landmark {
  name: string;
  measure: 'tall' | 'long' | 'wide';
  value: number;
}

export interface Passage {
  id: string;
  text: string;
}

export interface FxRate {
  base: string;
  quote: string;
  /** Units of `quote` per unit of `base`, with at most four significant digits. */
  rate: number;
}

export interface Cipher {
  language: string;
  /** words[d] is the cipher word for digit d. */
  words: string[];
}

export interface Scene {
  table: { name: string; rows: TableRow[] };
  sensor: SensorSeries;
  calendar: { date: string; events: CalendarEvent[] };
  products: [Product, Product];
  invoice: Invoice;
  landmark: Landmark;
  cipher: Cipher;
  /** Passages of the document store: the two products, the invoice, the archive note, and fillers. */
  passages: Passage[];
  fx: FxRate[];
}

export type SensorQuantity = 'temperature' | 'pressure' | 'wind speed';

export const SENSOR_UNITS: Record<SensorQuantity, string> = { temperature: '°C', pressure: 'kPa', 'wind speed': 'm/s' };

const CATALOGUE: Record<string, string[]> = {
  hardware: ['hex bolts', 'wood screws', 'door hinges', 'steel washers', 'wall plugs'],
  office: ['staplers', 'notebooks', 'gel pens', 'binder folders', 'desk trays'],
  kitchen: ['kettles', 'coffee mugs', 'soup ladles', 'whisks', 'tea towels'],
  garden: ['trowels', 'garden hoses', 'seed packs', 'plant pots', 'pruners'],
};
const TABLE_NAMES = ['inventory', 'stock_ledger', 'warehouse_items', 'store_inventory'];
const EVENT_TITLES = [
  'Design review',
  'Client call',
  'Team standup',
  'Budget meeting',
  'Lunch with Sam',
  'Vendor demo',
  'Code review',
  'Hiring panel',
  'Quarterly sync',
  'Site visit',
];
const PRODUCT_ADJ = ['Atlas', 'Orion', 'Nova', 'Vega', 'Lyra', 'Delta', 'Sierra', 'Echo', 'Juno', 'Tarn'];
const PRODUCT_NOUN = ['desk', 'chair', 'lamp', 'shelf', 'monitor stand', 'cabinet', 'sofa', 'bench'];
const MATERIALS = ['copper wire', 'steel pipe', 'oak planks', 'glass panels', 'cotton rolls', 'brass fittings'];
const LANDMARKS: Array<[string, Landmark['measure'], number, number]> = [
  ['the old lighthouse at Carrow', 'tall', 20, 95],
  ['the stone bridge at Elmsford', 'long', 60, 480],
  ['the harbour wall of Pellan', 'long', 120, 960],
  ['the clock tower of Varne', 'tall', 25, 120],
  ['the dam at Oskar Falls', 'wide', 150, 1400],
  ['the aqueduct of Rimmel', 'long', 200, 2500],
];
const CIPHER_LANGUAGES = ['Veltish', 'Morran', 'Qeshi', 'Daluvian'];
const SYLLABLES = ['ka', 'lo', 'mi', 've', 'tor', 'zun', 'pa', 'ri', 'sel', 'nu', 'bo', 'dra', 'fen', 'qui', 'ost', 'yel'];
const FILLERS = [
  'The cafeteria opens at half past seven and closes after the evening shift.',
  'Parking permits are renewed every spring through the facilities desk.',
  'The annual report describes steady growth in the northern region.',
  'Safety drills take place on the first Monday of each quarter.',
  'Visitors sign in at reception and wear a badge at all times.',
  'The library lends tools to staff for up to two weeks.',
];
/** Typical rates (quote per base) around which a scene draws its own. */
const FX_TYPICAL: Array<[string, string, number]> = [
  ['JPY', 'EUR', 0.0062],
  ['USD', 'EUR', 0.92],
  ['GBP', 'EUR', 1.17],
  ['CHF', 'EUR', 1.04],
  ['SEK', 'EUR', 0.087],
  ['JPY', 'USD', 0.0067],
  ['GBP', 'USD', 1.27],
  ['EUR', 'USD', 1.09],
  ['CHF', 'USD', 1.13],
  ['SEK', 'USD', 0.095],
];

export function generateScene(rng: Rng): Scene {
  const table = { name: rng.pick(TABLE_NAMES), rows: tableRows(rng) };
  const quantity = rng.pick<SensorQuantity>(['temperature', 'pressure', 'wind speed']);
  const sensor: SensorSeries = { id: `${sensorPrefix(quantity)}-${rng.int(10, 99)}`, quantity, tenths: sensorTenths(rng, quantity) };
  const calendar = { date: `2024-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`, events: calendarEvents(rng) };
  const [adjA, adjB] = rng.sample(PRODUCT_ADJ, 2) as [string, string];
  const [nounA, nounB] = rng.sample(PRODUCT_NOUN, 2) as [string, string];
  const products: [Product, Product] = [
    { name: `${adjA} ${nounA}`, priceCents: price(rng, 2000, 99900) },
    { name: `${adjB} ${nounB}`, priceCents: price(rng, 2000, 99900) },
  ];
  const fx = FX_TYPICAL.map(([base, quote, typical]) => ({ base, quote, rate: fourSignificant(typical * (0.9 + 0.2 * rng.next())) }));
  const pair = rng.pick(fx.filter((r) => r.base !== 'EUR'));
  const invoice: Invoice = {
    id: `INV-${rng.int(1000, 9999)}`,
    material: rng.pick(MATERIALS),
    qty: rng.int(2, 60),
    priceCents: pair.base === 'JPY' ? rng.int(200, 9000) * 100 : price(rng, 150, 25000),
    currency: pair.base,
  };
  const [lname, measure, lo, hi] = rng.pick(LANDMARKS);
  const landmark: Landmark = { name: lname, measure, value: rng.int(lo, hi) };
  const cipher: Cipher = { language: rng.pick(CIPHER_LANGUAGES), words: cipherWords(rng) };
  const passages = documentPassages(rng, products, invoice, landmark, cipher);
  return { table, sensor, calendar, products, invoice, landmark, cipher, passages, fx };
}

/** Six rows over two or three categories, items distinct. */
function tableRows(rng: Rng): TableRow[] {
  const categories = rng.sample(Object.keys(CATALOGUE), rng.int(2, 3));
  const pool = categories.flatMap((c) => CATALOGUE[c]!.map((item) => ({ item, category: c })));
  // Every category gets at least two rows, so a filtered total always combines several products.
  const chosen = categories.flatMap((c) =>
    rng.sample(
      pool.filter((p) => p.category === c),
      2,
    ),
  );
  const rest = rng.sample(
    pool.filter((p) => !chosen.includes(p)),
    6 - chosen.length,
  );
  return rng.shuffle([...chosen, ...rest]).map(({ item, category }) => ({ item, category, qty: rng.int(1, 40), priceCents: price(rng, 50, 9999) }));
}

function sensorTenths(rng: Rng, quantity: SensorQuantity): number[] {
  const [base, spread] = quantity === 'temperature' ? [rng.int(50, 300), 30] : quantity === 'pressure' ? [rng.int(950, 1050), 15] : [rng.int(10, 150), 25];
  return Array.from({ length: 5 }, () => Math.max(1, base + rng.int(-spread, spread)));
}

function sensorPrefix(quantity: SensorQuantity): string {
  return quantity === 'temperature' ? 'TH' : quantity === 'pressure' ? 'PR' : 'WS';
}

/** Four events on 15-minute marks between 08:00 and 18:00, in time order, never overlapping. */
function calendarEvents(rng: Rng): CalendarEvent[] {
  const titles = rng.sample(EVENT_TITLES, 4);
  const events: CalendarEvent[] = [];
  let cursor = 8 * 60 + 15 * rng.int(0, 4);
  for (const title of titles) {
    const start = cursor;
    const end = start + 15 * rng.int(2, 6);
    events.push({ title, start: clock(start), end: clock(end) });
    cursor = end + 15 * rng.int(1, 5);
  }
  return events;
}

function cipherWords(rng: Rng): string[] {
  const words = new Set<string>();
  while (words.size < 10) words.add(rng.pick(SYLLABLES) + rng.pick(SYLLABLES));
  return [...words];
}

export function cipherFigure(cipher: Cipher, value: number): string {
  return String(value)
    .split('')
    .map((d) => cipher.words[Number(d)]!)
    .join('-');
}

function documentPassages(rng: Rng, products: [Product, Product], invoice: Invoice, landmark: Landmark, cipher: Cipher): Passage[] {
  const texts = [
    `Catalogue entry: the ${products[0].name} is listed at ${money(products[0].priceCents)} EUR and ships within a week.`,
    `Catalogue entry: the ${products[1].name} is listed at ${money(products[1].priceCents)} EUR and ships within a week.`,
    `Invoice ${invoice.id}: ${invoice.qty} units of ${invoice.material} at ${money(invoice.priceCents)} ${invoice.currency} per unit, payable on delivery.`,
    `Archive note (written in ${cipher.language}): ${landmark.name} is ${cipherFigure(cipher, landmark.value)} metres ${landmark.measure}.`,
    ...rng.sample(FILLERS, 2),
  ];
  return rng.shuffle(texts).map((text, i) => ({ id: `doc-${i + 1}`, text }));
}

function price(rng: Rng, loCents: number, hiCents: number): number {
  // Catalogue-like endings: .00, .50, .99.
  const whole = rng.int(Math.floor(loCents / 100), Math.floor(hiCents / 100));
  return whole * 100 + rng.pick([0, 50, 99]);
}

function fourSignificant(x: number): number {
  return Number(x.toPrecision(4));
}

function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

function clock(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
