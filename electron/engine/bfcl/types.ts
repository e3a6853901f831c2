// The shapes of the official BFCL v4 data, as the package's files hold them.

/** A multi-turn dataset record (data/BFCL_v4_multi_turn_base.json). */
export interface BfclEntry {
  id: string;
  /** Per turn, the user messages of that turn. */
  question: { role: string; content: string }[][];
  initial_config: Record<string, unknown>;
  involved_classes: string[];
  path?: string[];
  excluded_function?: string[];
}

/** A possible answer (data/possible_answer/…): per turn, the gold call strings. */
export interface BfclAnswer {
  id: string;
  ground_truth: string[][];
}

/** One function doc (data/multi_turn_func_doc/*.json). */
export interface BfclDoc {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  response?: Record<string, unknown>;
}

/** multi_turn_checker's verdict: valid, or why not. */
export interface BfclCheckVerdict {
  valid: boolean;
  error_message?: string;
  error_type?: string;
  details?: unknown;
}
