// Exporters of a task's space: our space file, OpenAI/Anthropic tools arrays, an MCP allow-list,
// a plain name list and a one-page HTML report.
export * from './definitions';
export * from './export';
export * from '../api/export-formats';
export * from './formats';
export * from './html';
export * from './space-report';
export * from './space';
