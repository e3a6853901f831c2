// The JSON Schema users can validate their own native trace files against (assets/trace.schema.json).
import { z } from 'zod';
import { TraceSchema } from './schema';

export function traceJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://lots-studio.dev/schema/trace-v1.json',
    title: 'LOTS Studio native trace (one JSON object per line)',
    ...z.toJSONSchema(TraceSchema, { io: 'input' }),
  };
}
