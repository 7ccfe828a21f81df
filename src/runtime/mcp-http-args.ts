// The HTTP echo server's command line, apart from its code: the bridge's start check and the
// page import this, and must not pull the server itself into the page's first bundle.

import { FAULT_NAMES, type FaultName } from '../protocol/faults.ts';

export const MCP_HTTP_TOOL_SETS = ['echo', 'conformance'] as const;
export type McpHttpToolSet = (typeof MCP_HTTP_TOOL_SETS)[number];

/** The echo server's faults that mean nothing over HTTP: there is no stdout and no Content-Length frame. */
export const STDIO_ONLY_FAULTS: readonly FaultName[] = ['stdout-log', 'char-length'];
/** The faults the HTTP server takes. */
export const MCP_HTTP_FAULTS: readonly FaultName[] = FAULT_NAMES.filter((name) => !STDIO_ONLY_FAULTS.includes(name));

/**
 * The command line a host gives the program for these faults. The port is always 0: the OS picks
 * a free one, the program prints it, and only the tap that spawned it reads it. A page never names one.
 */
export function mcpHttpArguments(faults: readonly FaultName[]): string[] {
  return ['--port=0', ...faults.map((fault) => `--fault=${fault}`)];
}

