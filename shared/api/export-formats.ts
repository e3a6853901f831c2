// The export formats of a space, one list (no imports, so the API contract and the exporters both read it):
// `lots export --format`, the API's enum and the Export view derive from it.
export const TOOL_EXPORT_FORMATS = ['space', 'openai', 'openai-responses', 'anthropic', 'mcp', 'mcp-claude', 'names'] as const;
export const SPACE_EXPORT_FORMATS = [...TOOL_EXPORT_FORMATS, 'report'] as const;
export type SpaceExportFormat = (typeof SPACE_EXPORT_FORMATS)[number];
