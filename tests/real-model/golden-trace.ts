// A two-tool, two-turn trace whose rendering through the default model's own chat template is pinned
// by a golden text: a silent change in node-llama-cpp's wrapper or in our chat history changes scores.
import type { Trace } from '../../shared/trace/schema';

export const GOLDEN_TRACE: Trace = {
  v: 1,
  id: 'golden-real',
  system: 'Be brief.',
  tools: [
    {
      name: 'ExchangeRate',
      description: 'Look up an exchange rate.',
      parameters: { type: 'object', properties: { base: { type: 'string' }, quote: { type: 'string' } } },
    },
    { name: 'DocRetrieve', description: 'Retrieve a passage.' },
  ],
  turns: [
    {
      request: 'What does invoice 7 say?',
      steps: [
        { kind: 'call', calls: [{ id: 'a', name: 'DocRetrieve', arguments: { q: 'invoice 7' } }] },
        { kind: 'observation', callId: 'a', name: 'DocRetrieve', content: 'Invoice 7: 9 units at 1.25 GBP.', pairing: 'id' },
      ],
      answer: '9 units at 1.25 GBP.',
    },
    {
      request: 'In EUR?',
      steps: [
        { kind: 'call', text: 'Looking up the rate.', calls: [{ id: 'b', name: 'ExchangeRate', arguments: { base: 'GBP', quote: 'EUR' } }] },
        { kind: 'observation', callId: 'b', name: 'ExchangeRate', content: '{"rate": 1.2}', pairing: 'id' },
      ],
      answer: '13.50 EUR',
    },
  ],
};

/** GOLDEN_TRACE turn 2 with its answer, through node-llama-cpp 3.21.1's Qwen wrapper (Qwen2.5's format). */
export const GOLDEN_QWEN =
  '<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{"type": "function", "function": {"name": "ExchangeRate", "description": "Look up an exchange rate.", "parameters": {"type": "object", "properties": {"base": {"type": "string"}, "quote": {"type": "string"}}}}}\n{"type": "function", "function": {"name": "DocRetrieve", "description": "Retrieve a passage."}}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n<|im_start|>user\nWhat does invoice 7 say?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "DocRetrieve", "arguments": {"q": "invoice 7"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n"Invoice 7: 9 units at 1.25 GBP."\n</tool_response><|im_end|>\n<|im_start|>assistant\n9 units at 1.25 GBP.<|im_end|>\n<|im_start|>user\nIn EUR?<|im_end|>\n<|im_start|>assistant\nLooking up the rate.<tool_call>\n{"name": "ExchangeRate", "arguments": {"base": "GBP", "quote": "EUR"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n{"rate": 1.2}\n</tool_response><|im_end|>\n<|im_start|>assistant\n13.50 EUR';
