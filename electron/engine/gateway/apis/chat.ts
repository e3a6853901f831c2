// Chat Completions' menu (`{type:"function", function:{name, parameters}}`) for the three states: the part
// of an adapter (api.ts) that the cut (cut.ts) reads. Chat Completions has no deferral of its own: a
// deferred tool is demoted (the export's Chat Completions form). The rest of Chat Completions (its stream,
// its chains by messages, its importer) is served by the core's chat path (openai-gateway.ts). Pure.
import { toOpenAITools } from '../../../../shared/export/formats';
import { anyToolDef } from '../../../../shared/importers/tools';
import { isObj } from '../../../../shared/importers/values';
import { toolName } from '../../../../shared/gateway/chat-request';
import type { MenuApi } from './cut';

export const chatMenu: MenuApi = {
  tools: (body) =>
    (Array.isArray(body.tools) ? body.tools : []).map((t) => {
      const name = toolName(t);
      const def = anyToolDef(t);
      return name !== undefined ? { name, ...(def ? { def } : {}) } : {};
    }),
  deferredTool: (def) => toOpenAITools({ pinned: [], deferred: [def] })[0],
  forcedTool: (body) => (isObj(body.tool_choice) ? toolName(body.tool_choice) : undefined),
  withTools: ['tool_choice', 'parallel_tool_calls'],
};
