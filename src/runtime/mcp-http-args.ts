// The HTTP echo server's command line, apart from its code: the bridge's start check and the
// page import this, and must not pull the server itself into the page's first bundle.

import { FAULT_NAMES, type FaultName } from '../protocol/faults.ts';

/**
 * What the server offers: the echo tools (the default), the conformance suite's fixtures, or the
 * feature demo the live panel's Server features tabs use (src/protocol/features/demo-server.ts).
 */
export const MCP_HTTP_TOOL_SETS = ['echo', 'conformance', 'features'] as const;
export type McpHttpToolSet = (typeof MCP_HTTP_TOOL_SETS)[number];

/** The echo server's faults that mean nothing over HTTP: there is no stdout and no Content-Length frame. */
export const STDIO_ONLY_FAULTS: readonly FaultName[] = ['stdout-log', 'char-length'];
/** The faults the HTTP server takes. */
export const MCP_HTTP_FAULTS: readonly FaultName[] = FAULT_NAMES.filter((name) => !STDIO_ONLY_FAULTS.includes(name));

/**
 * The command line a host gives the program for these faults. The port is always 0: the OS picks
 * a free one, the program prints it, and only the tap that spawned it reads it. A page never names one.
 */
export function mcpHttpArguments(faults: readonly FaultName[], tools: McpHttpToolSet = 'echo', auth?: 'self'): string[] {
  // The default set is not written, so an echo server's argv is what it always was.
  return ['--port=0', ...(tools === 'echo' ? [] : [`--tools=${tools}`]), ...faults.map((fault) => `--fault=${fault}`), ...(auth === 'self' ? ['--auth=self'] : [])];
}

export function isMcpHttpToolSet(value: unknown): value is McpHttpToolSet {
  return typeof value === 'string' && (MCP_HTTP_TOOL_SETS as readonly string[]).includes(value);
}

