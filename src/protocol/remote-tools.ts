// The entry point of exercise 5 (exercises/05-register-mcp-tools): the learner writes these
// functions in one file, while the reference keeps them in three small modules, one job each.
// This file only gathers them, so '@learner' can stand for the learner's whole file when the
// exercise's spec runs against the reference solution. Named after the exercise's title (remote
// tools in the local registry); "bridge" is the WebSocket bridge of the live view.

export { schemaToParams } from './schema-to-params.ts';
export { mcpResultToText } from './mcp-result-to-text.ts';
export { isLegalToolName, registerMcpTools, riskFromAnnotations } from './register-mcp-tools.ts';
export type { McpToolSource, RegisterMcpToolsOptions } from './register-mcp-tools.ts';
