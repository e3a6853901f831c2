// The ten families of Table 4, by name.
import type { Family, FamilyName } from '../family';
import { computeOnly, noTool } from './controls';
import { docTwoFacts, fxSettle, translateFact } from './docs';
import { scheduleGap } from './schedule';
import { sensorConvert, sensorMean } from './sensor';
import { tableFilter, tableTotal } from './table';

export const FAMILIES: Readonly<Record<FamilyName, Family>> = {
  table_total: tableTotal,
  table_filter: tableFilter,
  sensor_mean: sensorMean,
  sensor_convert: sensorConvert,
  schedule_gap: scheduleGap,
  doc_two_facts: docTwoFacts,
  translate_fact: translateFact,
  fx_settle: fxSettle,
  compute_only: computeOnly,
  no_tool: noTool,
};
