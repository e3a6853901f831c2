// doc_two_facts, translate_fact and fx_settle: chains that start from the document store.
import type { Family } from '../family';
import { formatNumber } from '../format';
import { docRetrieveOutput, exchangeRateOutput, findRate, retrievePassages, translateOutput } from '../outputs';
import type { Scene } from '../scene';

/** The query a chain's DocRetrieve is called with; the passages it returns carry the facts. */
export function docTwoFactsQuery(scene: Scene): string {
  return `catalogue ${scene.products[0].name} ${scene.products[1].name}`;
}

export function translateQuery(scene: Scene): string {
  return `archive note ${scene.landmark.name} metres`;
}

export function fxQuery(scene: Scene): string {
  return `invoice ${scene.invoice.id}`;
}

export const docTwoFacts: Family = {
  name: 'doc_two_facts',
  chainText: 'DocRetrieve → Calculator',
  computation: 'two retrieved prices combined',
  chainTools: ['DocRetrieve', 'Calculator'],
  instantiate(scene, rng) {
    const [p, q] = scene.products;
    const difference = rng.next() < 0.4;
    const [hi, lo] = p.priceCents >= q.priceCents ? [p, q] : [q, p];
    const request = difference
      ? `According to the catalogue, how much more does the ${hi.name} cost than the ${lo.name}, in EUR?`
      : rng.pick([
          `According to the catalogue, what do the ${p.name} and the ${q.name} cost together, in EUR?`,
          `What is the combined catalogue price of the ${p.name} and the ${q.name}, in EUR?`,
        ]);
    const goldValue = (difference ? hi.priceCents - lo.priceCents : p.priceCents + q.priceCents) / 100;
    return {
      request,
      goldValue,
      chain: [
        { tool: 'DocRetrieve', needs: [], produces: 'passages', output: docRetrieveOutput(retrievePassages(scene.passages, docTwoFactsQuery(scene))) },
        { tool: 'Calculator', needs: ['passages'], output: formatNumber(goldValue) },
      ],
    };
  },
};

export const translateFact: Family = {
  name: 'translate_fact',
  chainText: 'DocRetrieve → Translate',
  computation: 'a figure written in cipher words',
  chainTools: ['DocRetrieve', 'Translate'],
  instantiate(scene, rng) {
    const { landmark, cipher } = scene;
    const request = rng.pick([
      `According to the archive note, how many metres ${landmark.measure} is ${landmark.name}? The note is written in ${cipher.language}.`,
      `The archive keeps a note in ${cipher.language} about ${landmark.name}. How many metres ${landmark.measure} is it?`,
    ]);
    const found = retrievePassages(scene.passages, translateQuery(scene));
    return {
      request,
      goldValue: landmark.value,
      chain: [
        { tool: 'DocRetrieve', needs: [], produces: 'passages', output: docRetrieveOutput(found) },
        // Translate reads the best passage, the archive note.
        { tool: 'Translate', needs: ['passages'], output: translateOutput(found[0]!.text, cipher) },
      ],
    };
  },
};

export const fxSettle: Family = {
  name: 'fx_settle',
  chainText: 'DocRetrieve + ExchangeRate → Calculator',
  computation: 'price × quantity × rate',
  chainTools: ['DocRetrieve', 'ExchangeRate', 'Calculator'],
  instantiate(scene, rng) {
    const inv = scene.invoice;
    const quote = rng.pick(scene.fx.filter((r) => r.base === inv.currency).map((r) => r.quote));
    const rate = findRate(scene, inv.currency, quote);
    const request = rng.pick([
      `Invoice ${inv.id} gives a quantity and a unit price in ${inv.currency}. What is the amount to settle in ${quote}?`,
      `What does invoice ${inv.id} come to in ${quote}, converting its ${inv.currency} total at the settlement rate?`,
    ]);
    const goldValue = (inv.priceCents / 100) * inv.qty * rate.rate;
    return {
      request,
      goldValue,
      chain: [
        { tool: 'DocRetrieve', needs: [], produces: 'passages', output: docRetrieveOutput(retrievePassages(scene.passages, fxQuery(scene))) },
        { tool: 'ExchangeRate', needs: [], produces: 'rate', output: exchangeRateOutput(rate) },
        { tool: 'Calculator', needs: ['passages', 'rate'], output: formatNumber(goldValue) },
      ],
    };
  },
};
