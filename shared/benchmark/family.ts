// What a benchmark family is: a request template over a hidden scene, its tool chain in dependency
// order, and a gold answer computed from the scene (paper B.1, Table 4).
import type { Rng } from '../lots/rng';
import type { Scene } from './scene';
import type { ChainTool } from './tools';

export const FAMILY_NAMES = [
  'table_total',
  'table_filter',
  'sensor_mean',
  'sensor_convert',
  'schedule_gap',
  'doc_two_facts',
  'translate_fact',
  'fx_settle',
  'compute_only',
  'no_tool',
] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

export function isFamilyName(name: string): name is FamilyName {
  return (FAMILY_NAMES as readonly string[]).includes(name);
}

/** One tool of a family's chain, resolved for one request. */
export interface ChainStep {
  tool: ChainTool;
  /** Variables produced by earlier steps; a missing one makes this step return a NameError. */
  needs: string[];
  /** The variable this step's output binds (rows, readings, events, passages, rate). */
  produces?: string;
  /** The output when every need is met. */
  output: string;
}

export interface FamilyInstance {
  request: string;
  goldValue: number;
  chain: ChainStep[];
}

export interface Family {
  name: FamilyName;
  /** The chain as in Table 4, e.g. "TableQuery → Calculator". */
  chainText: string;
  /** The computation the request requires. */
  computation: string;
  /** Tools of the chain; compute_only's Calculator is optional (the request can be answered without it). */
  chainTools: ChainTool[];
  instantiate(scene: Scene, rng: Rng): FamilyInstance;
}
