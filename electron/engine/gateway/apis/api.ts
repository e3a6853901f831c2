// One adapter per API the gateway serves (Chat Completions, Responses, Anthropic Messages): what differs
// between them — which paths, how a request names its tools, how the three states of a space are written
// in that API's form, how a streamed answer is assembled, which importer reads the exchange — and nothing
// else. The gateway core (openai-gateway.ts) does task resolution, space lookup,
// forwarding, recording, status and limits once for all of them. A fourth API is one adapter file and one
// line in API_ADAPTERS (registry.ts). Pure: no I/O (they live in the engine because they render deferred
// tools with the export's own functions, shared/export/formats.ts).
import type { ToolDef } from '../../../../shared/trace/schema';
import type { Obj } from '../../../../shared/importers/values';
import type { Parsed } from '../../../../shared/gateway/chat-request';

/** How deferred tools reach the upstream: the API's own deferral, the paper's documentation demotion, or not at all. */
export const DEFERRED_FORMS = ['native', 'demote', 'hide'] as const;
export type DeferredForm = (typeof DEFERRED_FORMS)[number];

/** What a streamed or whole answer came to, for the recorder. */
export interface AssembledAnswer {
  /** The answer as the API writes it when not streamed (undefined: nothing to record, `why` says why). */
  answer?: Obj;
  usage?: Obj;
  why?: string;
}

export interface StreamAssembler {
  push(text: string): void;
  result(): AssembledAnswer;
}

/** A request's tool entry as the adapter reads it. */
export interface RequestTool {
  /** undefined: not a named function tool (a built-in tool): kept as it is. */
  name?: string;
  def?: ToolDef;
}

export interface GatewayApi {
  /** Registry name (`--deferred` defaults, the recorded trace's `meta.gateway.kind` unless `recordedKind`). */
  id: string;
  /** `meta.gateway.kind` of the recorded traces, when it is not `id`. */
  recordedKind?: string;
  label: string;
  /** The path, segments case-folded, without a leading `v1`: `['chat','completions']`. */
  route: readonly string[];
  /** Deferred forms this API has; `native` only where the API has its own deferral. */
  forms: readonly DeferredForm[];
  /** The default deferred form for an upstream host. */
  defaultForm(upstreamHost: string): DeferredForm;
  /** Checks the shape the gateway relies on; the rest is the upstream's business. */
  parse(body: unknown): Parsed<Obj>;
  /** The text a router reads (the user's turns). */
  routeText(body: Obj): string;
  tools(body: Obj): RequestTool[];
  /** A deferred tool in `form` ('native' or 'demote'), as a tool entry of this API. */
  deferredTool(def: ToolDef, form: 'native' | 'demote'): unknown;
  /** Added once to the menu when a tool is deferred natively (a tool search tool). */
  searchTool?: unknown;
  /** The tool `tool_choice` forces, if any (dropped when that tool is hidden). */
  forcedTool(body: Obj): string | undefined;
  /** Members removed along with `tools` when no tool is left. */
  withTools: readonly string[];
  /** A whole (not streamed) answer. */
  answer(json: unknown): AssembledAnswer;
  stream(): StreamAssembler;
  /** The prompt tokens of a usage object. */
  promptTokens(usage: Obj | undefined): number | undefined;
  /** The tools an answer calls. */
  calledTools(answer: Obj): string[];
  /** The exchange as a record its importer reads (forwarded: the body sent upstream, continued chains merged). */
  record(id: string, forwarded: Obj, answer: Obj): { value: unknown; parse: 'openai' | 'anthropic' };
  /** How an exchange whose answer calls tools is joined to the request that continues it: by the keys of
   * `continues`/`opens` (call ids, response ids; the default), or by the conversation the request resends
   * (its messages begin with the earlier request's messages and answer: Chat Completions). */
  chainBy?: 'keys' | 'messages';
  /** Chains: keys this request continues, keys its answer opens; `merge` joins a chain's earlier exchange to this one's request when the request carries only what is new (Responses' previous_response_id). */
  continues(body: Obj): string[];
  opens(answer: Obj): string[];
  merge?(earlier: { forwarded: Obj; answer: Obj }, body: Obj): Obj;
}

/** Which of the upstream's hosts offer an API's native deferral (the hosted APIs; llama-server and vLLM do not). */
export function nativeDeferralHost(host: string, hosts: readonly string[]): boolean {
  return hosts.includes(host.toLowerCase());
}
