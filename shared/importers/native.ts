// The native JSONL format: one trace per line, validated as is (the round trip must be exact).
import { validateTrace } from '../trace/validate';
import { hasSecrets, withoutSecrets } from './secrets';
import { pickTask } from './task';
import type { ImportOptions, RecordFormat, RecordOutcome, SourceRecord } from './types';
import { isObj } from './values';

export const nativeFormat: RecordFormat = {
  id: 'native',
  kind: 'record',
  label: 'LOTS native trace JSONL',
  recognize(value) {
    if (!isObj(value) || !Array.isArray(value.turns)) return null;
    if (value.v === 1) return { score: 20, reason: 'records have "v": 1 and a "turns" array (the native trace format)' };
    return { score: 2, reason: 'records have a "turns" array like native traces' };
  },
  parseRecord: parseNativeRecord,
};

export function parseNativeRecord(record: SourceRecord, options: ImportOptions): RecordOutcome {
  const file = options.file ?? '';
  let value = record.value;
  if (isObj(value)) {
    if (isObj(value.meta) && hasSecrets(value.meta)) value = { ...value, meta: withoutSecrets(value.meta) };
    if (options.taskField) {
      const task = pickTask([value], options.taskField, undefined);
      if (task) value = { ...(value as object), task };
    }
  }
  const checked = validateTrace(value, file, record.line);
  if (!checked.ok) return { traces: [], errors: [checked.error] };
  return { traces: [{ trace: checked.value, line: record.line }], errors: [] };
}
