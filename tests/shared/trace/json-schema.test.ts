import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { traceJsonSchema } from '../../../shared/trace/json-schema';

describe('assets/trace.schema.json', () => {
  it('is up to date with the zod schema (regenerate: npx tsx build/write-trace-schema.ts)', () => {
    const onDisk = JSON.parse(readFileSync('assets/trace.schema.json', 'utf8'));
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(traceJsonSchema())));
    expect(onDisk.required).toEqual(expect.arrayContaining(['v', 'id', 'turns']));
  });
});
