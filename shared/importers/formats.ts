// Every format the Studio imports, in the order detection breaks ties, and the names users may type.
import { anthropicFormat } from './anthropic';
import { bfclFormat } from './bfcl';
import { gtaFormat } from './gta';
import { nativeFormat } from './native';
import { openaiFormat } from './openai';
import { sharegptFormat } from './sharegpt';
import { tauFormat } from './tau';
import { langfuseFormat, openInferenceFormat, otelFormat } from './spans/formats';
import { FORMAT_IDS, type FormatId, type TraceFormat } from './types';

export const TRACE_FORMATS: readonly TraceFormat[] = [
  nativeFormat,
  bfclFormat,
  gtaFormat,
  tauFormat,
  otelFormat,
  openInferenceFormat,
  langfuseFormat,
  anthropicFormat,
  openaiFormat,
  sharegptFormat,
];

export function formatById(id: FormatId): TraceFormat {
  return TRACE_FORMATS.find((f) => f.id === id)!;
}

const ALIASES: Record<string, FormatId> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  chat: 'openai',
  responses: 'openai',
  claude: 'anthropic',
  otlp: 'otel',
  opentelemetry: 'otel',
  phoenix: 'openinference',
  hermes: 'sharegpt',
  'llama-factory': 'sharegpt',
  llamafactory: 'sharegpt',
  'tau-bench': 'tau',
  'tau2-bench': 'tau',
  tau2: 'tau',
};

/** A format name as typed on the command line (case-insensitive, aliases allowed), or undefined. */
export function resolveFormatName(name: string): FormatId | 'auto' | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'auto') return 'auto';
  if ((FORMAT_IDS as readonly string[]).includes(n)) return n as FormatId;
  return ALIASES[n];
}

export function formatNames(): string {
  return ['auto', ...FORMAT_IDS].join('|');
}
