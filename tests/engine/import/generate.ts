// Generate a large, realistic JSONL trace file (OpenAI chat logs with parallel and repeated calls,
// errors and two user turns) for the streaming test and the benchmark.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export function benchRecord(i: number, pad: number): string {
  const city = ['Paris', 'Lyon', 'Oslo', 'Rome', 'Tokyo'][i % 5]!;
  return JSON.stringify({
    id: `bench-${i}`,
    model: 'gpt-4o-2024-08-06',
    metadata: { task: ['weather', 'time', 'travel'][i % 3] },
    tools: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
      {
        type: 'function',
        function: { name: 'get_time', description: 'Local time', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    ],
    messages: [
      { role: 'system', content: 'You are a concise travel assistant.' },
      { role: 'user', content: `Weather and local time in ${city}? (request ${i})` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}a`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } },
          { id: `c${i}b`, type: 'function', function: { name: 'get_time', arguments: JSON.stringify({ city }) } },
        ],
      },
      { role: 'tool', tool_call_id: `c${i}b`, content: '14:05 CEST' },
      { role: 'tool', tool_call_id: `c${i}a`, content: JSON.stringify({ temp_c: 18, sky: 'cloudy', report: 'r'.repeat(pad) }) },
      { role: 'assistant', content: `${city}: 18 °C, cloudy; it is 14:05.` },
      { role: 'user', content: 'And tomorrow?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${i}c`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city, day: 'tomorrow' }) } }],
      },
      { role: 'tool', tool_call_id: `c${i}c`, content: 'Error: upstream timeout' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${i}d`, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city, day: 'tomorrow' }) } }],
      },
      { role: 'tool', tool_call_id: `c${i}d`, content: JSON.stringify({ temp_c: 20, sky: 'sunny' }) },
      { role: 'assistant', content: 'Tomorrow: 20 °C and sunny.' },
    ],
  });
}

/** Write records until the file reaches `bytes`; returns the record count. */
export async function writeBenchFile(path: string, bytes: number, pad = 1500): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const line = benchRecord(i++, pad) + '\n';
    written += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return i;
}
