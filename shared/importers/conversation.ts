// The one intermediate shape every chat-like format is read into before a trace is assembled:
// who said what, which calls were made, which results came back (with or without call ids).
import type { Pairing, ToolDef } from '../trace/schema';

export interface NCall {
  /** The source's call id, when it has one. */
  id?: string;
  name: string;
  arguments?: unknown;
}

export interface NResult {
  /** The id of the call it answers, when the source links them explicitly (or the importer synthesised both). */
  callId?: string;
  /** The tool name the source recorded on the result, checked against the call it pairs with. */
  name?: string;
  content: string;
  isError?: boolean;
  /** How the source links it when there is no id: the next open call ('position') or the next open call of that name. */
  pairing?: Pairing;
  /** Where in the record it was, for error messages (`messages[4]`). */
  where?: string;
}

export type ConvItem =
  | { role: 'system'; text: string }
  /** A user message; `results` are tool results it carries (Anthropic), after which its text continues the turn. */
  | { role: 'user'; text: string; results?: NResult[] }
  /** An assistant message; `results` are server-side tool results inside it (Anthropic server tools). */
  | { role: 'assistant'; text: string; calls: NCall[]; results?: NResult[] }
  | { role: 'tool'; results: NResult[] };

/** Per-turn facts a format records outside the message flow (GTA's gold and prediction). */
export interface TurnExtra {
  gold?: string;
  /** Used as the frozen answer only when the turn's steps end without assistant text. */
  answer?: string;
  correct?: boolean;
}

export interface TraceDraft {
  /** Id from the source; absent: a content hash prefixed with `idPrefix`. */
  id?: string;
  idPrefix: string;
  format: string;
  task?: string;
  system?: string;
  /** The recorded menu; undefined or empty when the source does not record it (then inferred from the calls). */
  tools?: ToolDef[];
  items: ConvItem[];
  model?: string;
  turnExtras?: TurnExtra[];
  /** A verdict on the whole conversation (tau-bench's reward): recorded on its last turn. */
  outcome?: boolean;
  /** The last turn has no answer yet (a Responses API answer still `queued` / `in_progress`): no target. */
  pending?: boolean;
  meta?: Record<string, unknown>;
}
