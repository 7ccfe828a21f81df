// The demo conversation the live panel runs with the reference client, reported step by step.
// The client is the project's own McpClient, so what the learner watches is the real thing.

import { McpClient, type ClientState } from '../../protocol/client.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { CallToolResult } from '../../protocol/mcp.ts';
import type { ByteTransport } from '../../protocol/transport.ts';

export type HandshakeStep = 'idle' | 'starting' | 'initialize' | 'listTools' | 'callTool' | 'done' | 'failed';

export interface HandshakeState {
  step: HandshakeStep;
  clientState: ClientState | null;
  server: { name: string; version: string; protocol: string } | null;
  tools: readonly string[] | null;
  result: CallToolResult | null;
  /** Why the run failed (step 'failed'), as the client's error says it. */
  error: string | null;
}

export const IDLE_HANDSHAKE: HandshakeState = { step: 'idle', clientState: null, server: null, tools: null, result: null, error: null };

/** The text the echo call sends: non-ASCII on purpose, so byte counts and character counts differ. */
export const HANDSHAKE_ECHO_TEXT = '你好, MCP 👋';

/**
 * Runs the handshake and the two tool requests over `transport`, reporting every change through
 * `report`. Never throws: a failure is reported as step 'failed'. Returns the client, left open.
 */
export async function runHandshake(
  transport: ByteTransport,
  framing: FramingName,
  requestTimeoutMs: number,
  report: (state: HandshakeState) => void,
): Promise<McpClient> {
  let state: HandshakeState = { ...IDLE_HANDSHAKE, step: 'initialize', clientState: 'new' };
  const set = (patch: Partial<HandshakeState>) => {
    state = { ...state, ...patch };
    report(state);
  };
  const client = new McpClient(transport, { framing, requestTimeoutMs });
  client.on((event) => {
    if (event.type === 'state') set({ clientState: event.to });
  });
  report(state);
  try {
    const init = await client.connect();
    set({ server: { name: init.serverInfo.name, version: init.serverInfo.version, protocol: init.protocolVersion }, step: 'listTools' });
    const tools = await client.listTools();
    set({ tools: tools.map((tool) => tool.name), step: 'callTool' });
    const result = await client.callTool('echo', { text: HANDSHAKE_ECHO_TEXT });
    set({ result, step: 'done' });
  } catch (error) {
    set({ step: 'failed', error: error instanceof Error ? error.message : String(error) });
  }
  return client;
}
