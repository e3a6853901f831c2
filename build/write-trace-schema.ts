// Regenerates assets/trace.schema.json from the zod schema: `npx tsx build/write-trace-schema.ts`.
import { writeFileSync } from 'node:fs';
import { traceJsonSchema } from '../shared/trace/json-schema';

writeFileSync(new URL('../assets/trace.schema.json', import.meta.url), JSON.stringify(traceJsonSchema(), null, 2) + '\n');
