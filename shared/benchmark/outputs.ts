// Output formats of the data tools, shared by chain steps and generic runs so a tool always answers
// in its usual format.
import { SENSOR_UNITS, type Cipher, type FxRate, type Passage, type Scene } from './scene';
import { FUNCTION_WORDS } from '../selection/stopwords';

export function tableQueryOutput(scene: Scene): string {
  const rows = scene.table.rows.map((r) => ({ item: r.item, category: r.category, qty: r.qty, unit_price: r.priceCents / 100 }));
  return `${rows.length} rows from ${scene.table.name}: ${JSON.stringify(rows)}`;
}

export function sensorOutput(scene: Scene): string {
  const s = scene.sensor;
  return `sensor ${s.id} (${s.quantity}, ${SENSOR_UNITS[s.quantity]}), last ${s.tenths.length} readings: [${s.tenths.map((t) => (t / 10).toFixed(1)).join(', ')}]`;
}

export function calendarOutput(scene: Scene): string {
  return `events on ${scene.calendar.date}: ${JSON.stringify(scene.calendar.events)}`;
}

// Function words only (stopwords.ts says why this list is shorter than BM25's and frozen).
const STOPWORDS: ReadonlySet<string> = new Set(FUNCTION_WORDS);

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOPWORDS.has(w)));
}

/** A passage must share this many distinct words with the query to be returned. */
export const MIN_MATCHING_WORDS = 2;

/** Up to two passages sharing the most distinct words with the query (ties: store order). */
export function retrievePassages(passages: readonly Passage[], query: string): Passage[] {
  const q = words(query);
  const scored = passages.map((p, i) => {
    let overlap = 0;
    for (const w of words(p.text)) if (q.has(w)) overlap++;
    return { p, i, overlap };
  });
  scored.sort((a, b) => b.overlap - a.overlap || a.i - b.i);
  return scored
    .filter((s) => s.overlap >= MIN_MATCHING_WORDS)
    .slice(0, 2)
    .map((s) => s.p);
}

export function docRetrieveOutput(passages: readonly Passage[]): string {
  if (passages.length === 0) return 'no passage matches the query';
  return passages.map((p) => `[${p.id}] ${p.text}`).join(' ');
}

/** Figures written in the cipher become digits; text in no known language comes back as it was. */
export function translateOutput(text: string, cipher: Cipher): string {
  const word = cipher.words.map(escapeRegExp).join('|');
  const figure = new RegExp(`\\b(?:${word})(?:-(?:${word}))*\\b`, 'g');
  return text
    .replace(figure, (m) =>
      m
        .split('-')
        .map((w) => String(cipher.words.indexOf(w)))
        .join(''),
    )
    .replace(`(written in ${cipher.language})`, `(translated from ${cipher.language})`);
}

export function exchangeRateOutput(rate: FxRate): string {
  return `1 ${rate.base} = ${rate.rate} ${rate.quote} (settlement rate)`;
}

export function findRate(scene: Scene, base: string, quote: string): FxRate {
  const rate = scene.fx.find((r) => r.base === base && r.quote === quote);
  if (!rate) throw new RangeError(`the scene has no ${base}→${quote} rate`);
  return rate;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
