// A project for the gateway tests: task `fx` with an approved space (ExchangeRate, Calculator out of four
// tools), task `docs` with traces but no approved space; and the Chat Completions requests agents send.
import { join } from 'node:path';
import { ProjectStore } from '../../electron/engine/store';
import type { Trace } from '../../shared/trace/schema';

export const TOOL_NAMES = ['Calculator', 'DocRetrieve', 'ExchangeRate', 'WebSearch'] as const;
export const SPACE = ['ExchangeRate', 'Calculator'];

export const openaiTools = TOOL_NAMES.map((name) => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool: ${'it does what its name says. '.repeat(4)}`,
    parameters: { type: 'object', properties: { query: { type: 'string', description: `what to ask ${name}` } }, required: ['query'] },
  },
}));

const menu = TOOL_NAMES.map((name) => ({ name, description: `the ${name} tool` }));
const trace = (id: string, task: string, request: string): Trace => ({ v: 1, id, task, tools: menu, turns: [{ request, steps: [], answer: 'done' }] });

export function makeProject(dir: string, name = 'proj'): string {
  const project = join(dir, name);
  const store = ProjectStore.create(project);
  store.addTraces(
    [
      trace('fx-1', 'fx', 'convert 100 EUR to USD at the current exchange rate'),
      trace('fx-2', 'fx', 'how many yen is 250 dollars at today rate'),
      trace('docs-1', 'docs', 'find the section of the handbook about vacation policy'),
      trace('docs-2', 'docs', 'search the documentation for the deployment guide'),
    ],
    'seed.jsonl',
  );
  store.acceptSpace({ task: 'fx', tools: SPACE, pinned: [], banned: [], rule: { kind: 'topk', k: 2 }, note: 'approved for the gateway tests' });
  return project;
}

export function chatRequest(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'tiny', messages: [{ role: 'user', content: text }], tools: openaiTools, ...extra };
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; json: unknown; headers: Headers }> {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, text, json, headers: r.headers };
}

/** The traces a gateway recorded into the project (those with `meta.gateway`). */
export function gatewayTraces(project: string): Trace[] {
  return ProjectStore.open(project)
    .listTraces()
    .filter((t) => t.meta?.gateway !== undefined);
}
