// The native trace format (JSONL, one trace per line). Every importer produces these objects;
// the scorer, the LOTS math and the UI consume them. The format is versioned by `v`.
import { z } from 'zod';

export const TRACE_FORMAT_VERSION = 1;

/** A tool as exposed on the menu of a request (OpenAI-style function definition). */
export const ToolDefSchema = z.object({
  name: z.string().min(1, 'a tool needs a non-empty name'),
  description: z.string().optional(),
  /** JSON Schema of the arguments. */
  parameters: z.record(z.string(), z.unknown()).optional(),
  /** The menu's `strict` flag (OpenAI/Anthropic strict schema adherence), kept so an export serves it as recorded. */
  strict: z.boolean().optional(),
});
export type ToolDef = z.infer<typeof ToolDefSchema>;

/** How an observation was matched to its call: by an explicit id, by position, or by name and order. */
export const PairingSchema = z.enum(['id', 'position', 'name-order']);
export type Pairing = z.infer<typeof PairingSchema>;

export const ToolCallSchema = z.object({
  /** Unique within the trace. Importers synthesise one (e.g. `t0.s2.c1`) when the source has none. */
  id: z.string().min(1),
  name: z.string().min(1),
  /** Parsed arguments when they were JSON, else the raw string as recorded. */
  arguments: z.unknown().optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** One assistant message that calls one or more tools (parallel calls share the message). */
export const CallStepSchema = z.object({
  kind: z.literal('call'),
  /** Text the assistant wrote alongside the calls (reasoning, preamble); may be empty. */
  text: z.string().optional(),
  calls: z.array(ToolCallSchema).min(1, 'a call step needs at least one call'),
});

/** The output of one call, paired to it by `callId`. */
export const ObservationStepSchema = z.object({
  kind: z.literal('observation'),
  callId: z.string().min(1),
  /** The tool that produced it (the called tool's name). */
  name: z.string().min(1),
  content: z.string(),
  isError: z.boolean().optional(),
  pairing: PairingSchema.default('id'),
});

/** The paper's single-step protocol (TGB, GTA): one output line per served tool, `<Tool>: <output>`. */
export const LinesStepSchema = z.object({
  kind: z.literal('lines'),
  lines: z.array(z.object({ tool: z.string().min(1), output: z.string() })),
});

/** Any other message in the history that is not a call or an observation. */
export const MessageStepSchema = z.object({
  kind: z.literal('message'),
  role: z.enum(['assistant', 'user', 'system']),
  content: z.string(),
});

export const StepSchema = z.discriminatedUnion('kind', [CallStepSchema, ObservationStepSchema, LinesStepSchema, MessageStepSchema]);
export type CallStep = z.infer<typeof CallStepSchema>;
export type ObservationStep = z.infer<typeof ObservationStepSchema>;
export type LinesStep = z.infer<typeof LinesStepSchema>;
export type MessageStep = z.infer<typeof MessageStepSchema>;
export type Step = z.infer<typeof StepSchema>;

/** One user turn: the request, the recorded steps, and the frozen final answer that is scored. */
export const TurnSchema = z.object({
  request: z.string(),
  steps: z.array(StepSchema).default([]),
  /** The frozen final answer y_x (teacher-forced, never regenerated). '' when the target is a call. */
  answer: z.string(),
  /**
   * 'call': the turn's last assistant message is a function call, and that call step (its text and calls,
   * the last call step of `steps`) is the frozen target (paper B.2), scored in the model's own tool-call
   * format; `answer` is then ''. Steps after it (its observations) are context for later turns only.
   */
  target: z.literal('call').optional(),
  gold: z.string().optional(),
  correct: z.boolean().optional(),
});
export type Turn = z.infer<typeof TurnSchema>;

export const TraceSchema = z.object({
  v: z.literal(TRACE_FORMAT_VERSION, { message: `unsupported trace version (this build reads v${TRACE_FORMAT_VERSION})` }),
  id: z.string().min(1, 'a trace needs a non-empty id'),
  /** Task label (recurring task). Absent: left for routing. */
  task: z.string().min(1).optional(),
  system: z.string().optional(),
  /** The tool menu exposed on this request. */
  tools: z.array(ToolDefSchema).default([]),
  turns: z.array(TurnSchema).min(1, 'a trace needs at least one turn'),
  model: z.string().optional(),
  /** Fitting or evaluation split, where the source defines one (the built-in benchmark does). */
  split: z.enum(['fit', 'eval']).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type Trace = z.infer<typeof TraceSchema>;
/** What a producer may write (defaults not yet applied). */
export type TraceInput = z.input<typeof TraceSchema>;
